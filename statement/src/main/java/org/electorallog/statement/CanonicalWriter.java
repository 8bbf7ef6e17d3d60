package org.electorallog.statement;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The write side of the canonical statement grammar: the bytes the signatures cover and the leaf hash
 * commits to (schemas/README.md "Canonical statement bytes", decision 16). It knows the grammar, not
 * any schema: a caller walks its statement (schemas {@code CanonicalStatement} walks an Avro record)
 * and writes each value with one call; {@link CanonicalStatementReader} reads the bytes back.
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
 *
 * <p>A writer is one encoding's growing buffer, unsynchronized (ByteArrayOutputStream locks on every
 * write).
 */
public final class CanonicalWriter {
    /** Format tag and version at the start of every canonical statement. */
    public static final byte[] MAGIC = "ELS1".getBytes(StandardCharsets.US_ASCII);
    /** Entries of C2SP tlog-tiles entry bundles carry a uint16 length: nothing longer can be logged. */
    public static final int MAX_BYTES = 65_535;

    static final int NULL = 0x00;
    static final int BOOL = 0x01;
    static final int INT = 0x02;
    static final int DOUBLE = 0x03;
    static final int STRING = 0x04;
    static final int BYTES = 0x05;
    static final int ENUM = 0x06;
    static final int RECORD = 0x07;
    static final int ARRAY = 0x08;
    static final int MAP = 0x09;

    private byte[] buf = new byte[512];
    private int count;

    private CanonicalWriter() {}

    /** A writer that has written the magic; the statement's record comes next. */
    public static CanonicalWriter statement() {
        CanonicalWriter out = new CanonicalWriter();
        out.raw(MAGIC);
        return out;
    }

    /**
     * {@code str(s)} as bytes, for names a walker writes again and again (a record's name, its field
     * names): computed once, written with {@link #record} and {@link #field}.
     */
    public static byte[] str(String s) {
        CanonicalWriter out = new CanonicalWriter();
        out.strValue(s);
        return Arrays.copyOf(out.buf, out.count);
    }

    /** A null inside an array or a map (a record leaves its null fields out). */
    public void nullValue() {
        write(NULL);
    }

    public void bool(boolean v) {
        write(BOOL);
        write(v ? 1 : 0);
    }

    /** An int or a long. */
    public void int64(long v) {
        write(INT);
        long64(v);
    }

    /** A float or a double, as the bits {@code ByteBuffer.putDouble} writes (NaN payloads kept). */
    public void float64(double v) {
        write(DOUBLE);
        long64(Double.doubleToRawLongBits(v));
    }

    public void string(String v) {
        write(STRING);
        strValue(v);
    }

    /** Bytes or a fixed. */
    public void bytes(byte[] v) {
        write(BYTES);
        uvarint(v.length);
        raw(v);
    }

    /** Bytes or a fixed: the buffer's remaining bytes (its position is left where it was). */
    public void bytes(ByteBuffer v) {
        ByteBuffer b = v.duplicate();
        int n = b.remaining();
        write(BYTES);
        uvarint(n);
        ensure(n);
        b.get(buf, count, n);
        count += n;
    }

    public void enumSymbol(String symbol) {
        write(ENUM);
        strValue(symbol);
    }

    /**
     * A record's head: its simple name as {@link #str} wrote it and how many fields follow (the
     * non-null ones); then {@link #field} and a value for each, by name.
     */
    public void record(byte[] name, int fields) {
        write(RECORD);
        raw(name);
        uvarint(fields);
    }

    /** A field's name as {@link #str} wrote it; its value comes next. */
    public void field(byte[] name) {
        raw(name);
    }

    /** An array's head; its n values come next. */
    public void array(int n) {
        write(ARRAY);
        uvarint(n);
    }

    /** A map's head; n times a {@link #mapKey} and its value come next, by key (unsigned UTF-8 bytes). */
    public void map(int n) {
        write(MAP);
        uvarint(n);
    }

    public void mapKey(String key) {
        strValue(key);
    }

    /** The bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, count);
    }

    private void strValue(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        uvarint(b.length);
        raw(b);
    }

    private void uvarint(long v) {
        while ((v & ~0x7FL) != 0) {
            write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        write((int) v);
    }

    /** An int64, big-endian. */
    private void long64(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[count++] = (byte) (v >>> shift);
        }
    }

    private void write(int b) {
        ensure(1);
        buf[count++] = (byte) b;
    }

    private void raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, count, b.length);
        count += b.length;
    }

    private void ensure(int more) {
        if (count + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
        }
    }
}
