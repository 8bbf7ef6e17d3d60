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
import org.electorallog.statement.CanonicalWriter;

/**
 * The canonical statement bytes of an Avro {@code Statement} record (generic or generated): the
 * mapping from Avro to the statement module's grammar ({@link CanonicalWriter}, schemas/README.md
 * "Canonical statement bytes"). The bytes depend only on the data, never on the Avro schema version
 * it was read with: fields are written by name in sorted order and null fields are left out, so
 * adding an optional field (default null) keeps every old statement's bytes.
 */
public final class CanonicalStatement {
    /** Format tag and version at the start of every canonical statement ({@link CanonicalWriter#MAGIC}). */
    public static final byte[] MAGIC = CanonicalWriter.MAGIC;
    /** The longest entry a C2SP tlog-tiles entry bundle carries ({@link CanonicalWriter#MAX_BYTES}). */
    public static final int MAX_BYTES = CanonicalWriter.MAX_BYTES;

    private CanonicalStatement() {}

    /**
     * Each record schema's fields in canonical order, with their names already encoded: computed
     * once per schema (the schemas are the generated classes' and the registry's, a handful).
     */
    private static final Map<Schema, Layout> LAYOUTS = new ConcurrentHashMap<>();

    /** The canonical bytes of a statement record (generic or generated). */
    public static byte[] encode(IndexedRecord statement) {
        CanonicalWriter out = CanonicalWriter.statement();
        value(out, statement, statement.getSchema());
        return out.toByteArray();
    }

    private static void value(CanonicalWriter out, Object v, Schema schema) {
        if (v == null) {
            out.nullValue();
            return;
        }
        switch (schema.getType()) {
            case UNION -> value(out, v, branch(schema, v));
            case RECORD -> record(out, (IndexedRecord) v);
            case BOOLEAN -> out.bool((Boolean) v);
            case INT, LONG -> out.int64(((Number) v).longValue());
            case FLOAT, DOUBLE -> out.float64(((Number) v).doubleValue());
            case STRING -> out.string(v.toString());
            case BYTES -> out.bytes((ByteBuffer) v);
            case FIXED -> out.bytes(((GenericFixed) v).bytes());
            case ENUM -> out.enumSymbol(v instanceof GenericEnumSymbol<?> s ? s.toString() : ((Enum<?>) v).name());
            case ARRAY -> {
                Collection<?> items = (Collection<?>) v;
                out.array(items.size());
                for (Object item : items) {
                    value(out, item, schema.getElementType());
                }
            }
            case MAP -> {
                Map<?, ?> map = (Map<?, ?>) v;
                List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
                entries.sort(Comparator.comparing(
                        e -> e.getKey().toString().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
                out.map(entries.size());
                for (Map.Entry<?, ?> e : entries) {
                    out.mapKey(e.getKey().toString());
                    value(out, e.getValue(), schema.getValueType());
                }
            }
            case NULL -> out.nullValue();
            default -> throw new IllegalArgumentException("no canonical form for Avro type " + schema.getType());
        }
    }

    private static void record(CanonicalWriter out, IndexedRecord r) {
        Layout layout = LAYOUTS.get(r.getSchema());
        if (layout == null) {
            // computeIfAbsent locks the bin even when the key is there (unless it is the bin's first)
            layout = LAYOUTS.computeIfAbsent(r.getSchema(), Layout::of);
        }
        Schema.Field[] fields = layout.fields();
        int present = 0;
        for (Schema.Field f : fields) {
            if (r.get(f.pos()) != null) {
                present++;
            }
        }
        out.record(layout.name(), present);
        for (int i = 0; i < fields.length; i++) {
            Object v = r.get(fields[i].pos());
            if (v != null) {
                out.field(layout.fieldNames()[i]);
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
                names[i] = CanonicalWriter.str(sorted.get(i).name());
            }
            return new Layout(CanonicalWriter.str(schema.getName()), sorted.toArray(Schema.Field[]::new), names);
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
}
