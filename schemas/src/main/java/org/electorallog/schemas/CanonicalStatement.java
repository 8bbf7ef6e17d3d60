package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * The canonical statement bytes: a deterministic encoding of a {@code Statement} record that the
 * signatures cover and the leaf hash commits to. It depends only on the data, never on the Avro
 * schema version it was read with: fields are written by name in sorted order and null fields are
 * left out, so adding an optional field (default null) keeps every old statement's bytes.
 * schemas/README.md documents it byte by byte ("Canonical statement bytes").
 *
 * <pre>
 * canonical = "ELS1" value(statement)
 * value(record) = 0x07 str(name) uvarint(n) { str(field name) value(field) } for the n non-null fields, by name
 * value(null)   = 0x00            (only inside arrays and maps; null fields are omitted)
 * value(bool)   = 0x01 (0x00 | 0x01)
 * value(int|long) = 0x02 int64 big-endian
 * value(float|double) = 0x03 IEEE-754 binary64 big-endian
 * value(string) = 0x04 str
 * value(bytes|fixed) = 0x05 uvarint(len) bytes
 * value(enum)   = 0x06 str(symbol)
 * value(array)  = 0x08 uvarint(n) value*
 * value(map)    = 0x09 uvarint(n) { str(key) value } by key
 * str(s) = uvarint(len(utf8(s))) utf8(s);  uvarint = unsigned LEB128
 * </pre>
 */
public final class CanonicalStatement {
    /** Format tag and version at the start of every canonical statement. */
    public static final byte[] MAGIC = "ELS1".getBytes(StandardCharsets.US_ASCII);
    /** Entries of C2SP tlog-tiles entry bundles carry a uint16 length: nothing longer can be logged. */
    public static final int MAX_BYTES = 65_535;

    private CanonicalStatement() {}

    /**
     * Each record schema's fields in canonical order, with their names already encoded: computed
     * once per schema (the schemas are the generated classes' and the registry's, a handful).
     */
    private static final Map<Schema, Layout> LAYOUTS = new ConcurrentHashMap<>();

    /** The canonical bytes of a statement record (generic or generated). */
    public static byte[] encode(IndexedRecord statement) {
        Sink out = new Sink();
        out.writeBytes(MAGIC);
        value(out, statement, statement.getSchema());
        return out.toByteArray();
    }

    private static void value(Sink out, Object v, Schema schema) {
        if (v == null) {
            out.write(0x00);
            return;
        }
        switch (schema.getType()) {
            case UNION -> value(out, v, branch(schema, v));
            case RECORD -> record(out, (IndexedRecord) v);
            case BOOLEAN -> {
                out.write(0x01);
                out.write((Boolean) v ? 1 : 0);
            }
            case INT, LONG -> {
                out.write(0x02);
                out.int64(((Number) v).longValue());
            }
            case FLOAT, DOUBLE -> {
                out.write(0x03);
                // the bits ByteBuffer.putDouble writes: NaN payloads kept as they are
                out.int64(Double.doubleToRawLongBits(((Number) v).doubleValue()));
            }
            case STRING -> {
                out.write(0x04);
                str(out, v.toString());
            }
            case BYTES -> {
                out.write(0x05);
                ByteBuffer b = ((ByteBuffer) v).duplicate();
                uvarint(out, b.remaining());
                out.write(b);
            }
            case FIXED -> {
                out.write(0x05);
                byte[] bytes = ((GenericFixed) v).bytes();
                uvarint(out, bytes.length);
                out.writeBytes(bytes);
            }
            case ENUM -> {
                out.write(0x06);
                str(out, v instanceof GenericEnumSymbol<?> s ? s.toString() : ((Enum<?>) v).name());
            }
            case ARRAY -> {
                out.write(0x08);
                Collection<?> items = (Collection<?>) v;
                uvarint(out, items.size());
                for (Object item : items) {
                    value(out, item, schema.getElementType());
                }
            }
            case MAP -> {
                out.write(0x09);
                Map<?, ?> map = (Map<?, ?>) v;
                List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
                entries.sort(Comparator.comparing(
                        e -> e.getKey().toString().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
                uvarint(out, entries.size());
                for (Map.Entry<?, ?> e : entries) {
                    str(out, e.getKey().toString());
                    value(out, e.getValue(), schema.getValueType());
                }
            }
            case NULL -> out.write(0x00);
            default -> throw new IllegalArgumentException("no canonical form for Avro type " + schema.getType());
        }
    }

    private static void record(Sink out, IndexedRecord r) {
        Layout layout = LAYOUTS.get(r.getSchema());
        if (layout == null) {
            // computeIfAbsent locks the bin even when the key is there (unless it is the bin's first)
            layout = LAYOUTS.computeIfAbsent(r.getSchema(), Layout::of);
        }
        out.write(0x07);
        out.writeBytes(layout.name());
        Schema.Field[] fields = layout.fields();
        int present = 0;
        for (Schema.Field f : fields) {
            if (r.get(f.pos()) != null) {
                present++;
            }
        }
        uvarint(out, present);
        for (int i = 0; i < fields.length; i++) {
            Object v = r.get(fields[i].pos());
            if (v != null) {
                out.writeBytes(layout.fieldNames()[i]);
                value(out, v, fields[i].schema());
            }
        }
    }

    /**
     * A record schema as {@code value(record)} writes it: str(simple name), and the fields sorted by
     * the unsigned UTF-8 bytes of their names, each with str(field name).
     */
    @SuppressWarnings("ArrayRecordComponent") // a cached layout, never compared as a value
    private record Layout(byte[] name, Schema.Field[] fields, byte[][] fieldNames) {
        static Layout of(Schema schema) {
            // the simple name: record names are unique within the envelope, and the namespace would
            // cost every statement 30 bytes twice over
            List<Schema.Field> sorted = new ArrayList<>(schema.getFields());
            sorted.sort(Comparator.comparing(f -> f.name().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
            byte[][] names = new byte[sorted.size()][];
            for (int i = 0; i < names.length; i++) {
                names[i] = str(sorted.get(i).name());
            }
            return new Layout(str(schema.getName()), sorted.toArray(Schema.Field[]::new), names);
        }

        private static byte[] str(String s) {
            Sink out = new Sink();
            CanonicalStatement.str(out, s);
            return out.toByteArray();
        }
    }

    /** The union branch a value belongs to: records by full name, other types by Avro type. */
    private static Schema branch(Schema union, Object v) {
        for (Schema s : union.getTypes()) {
            if (v instanceof GenericContainer c
                    && (s.getType() == Schema.Type.RECORD
                            || s.getType() == Schema.Type.ENUM
                            || s.getType() == Schema.Type.FIXED)) {
                if (c.getSchema().getFullName().equals(s.getFullName())) {
                    return s;
                }
            } else if (matches(s.getType(), v)) {
                return s;
            }
        }
        throw new IllegalArgumentException("value of " + v.getClass().getName() + " fits no branch of " + union);
    }

    private static boolean matches(Schema.Type t, Object v) {
        return switch (t) {
            case STRING -> v instanceof CharSequence;
            case BYTES -> v instanceof ByteBuffer;
            case INT -> v instanceof Integer;
            case LONG -> v instanceof Long;
            case FLOAT -> v instanceof Float;
            case DOUBLE -> v instanceof Double;
            case BOOLEAN -> v instanceof Boolean;
            case ARRAY -> v instanceof Collection;
            case MAP -> v instanceof Map;
            case ENUM -> v instanceof Enum || v instanceof GenericEnumSymbol;
            default -> false;
        };
    }

    private static void str(Sink out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        uvarint(out, b.length);
        out.writeBytes(b);
    }

    private static void uvarint(Sink out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** A growing byte buffer of one encoding, unsynchronized (ByteArrayOutputStream locks on every write). */
    private static final class Sink {
        private byte[] buf = new byte[512];
        private int count;

        void write(int b) {
            ensure(1);
            buf[count++] = (byte) b;
        }

        void writeBytes(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, count, b.length);
            count += b.length;
        }

        /** The buffer's remaining bytes (its position moves to its limit). */
        void write(ByteBuffer b) {
            int n = b.remaining();
            ensure(n);
            b.get(buf, count, n);
            count += n;
        }

        /** An int64, big-endian. */
        void int64(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[count++] = (byte) (v >>> shift);
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, count);
        }

        private void ensure(int more) {
            if (count + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
            }
        }
    }
}
