package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads canonical statement bytes (the log's entries: schemas {@code CanonicalStatement},
 * schemas/README.md "Canonical statement bytes") back into their fields, without any Avro schema:
 * what the audit checks stored columns against and what a verifier outside the operator
 * ({@code monitor}) reads of an entry.
 */
public final class CanonicalStatementReader {

    /**
     * How deep values may nest: the statement schema nests 4 deep (statement, body, a record in it, a
     * value); anything far deeper is refused rather than walked.
     */
    static final int MAX_DEPTH = 64;

    private CanonicalStatementReader() {}

    /**
     * Reads the top-level fields of canonical statement bytes back: field name to value, where a
     * string, enum symbol or bytes value is returned as a String, String or byte[], a number as a
     * Long, and a nested record, array or map as its raw canonical value bytes ({@link #record}
     * reads a record's). Malformed bytes throw IllegalArgumentException naming the offset.
     */
    public static Map<String, Object> fields(byte[] canonical) {
        Cursor r = new Cursor(canonical);
        for (byte b : CanonicalWriter.MAGIC) {
            if (r.u8() != (b & 0xFF)) {
                throw new IllegalArgumentException("canonical statement does not start with ELS1");
            }
        }
        return recordToEnd(r, canonical);
    }

    /** Told each top-level field of a statement by {@link #walk}, in the bytes' order. */
    @FunctionalInterface
    public interface FieldVisitor {
        /**
         * Field {@code name} with its value's tag (schemas/README.md "Canonical bytes": 0x00 null,
         * 0x01 boolean, 0x02 long, 0x03 double, 0x04 string, 0x05 bytes, 0x06 enum symbol, 0x07
         * record, 0x08 array, 0x09 map) and where its value lies in {@code canonical}: for a string,
         * enum symbol or bytes its bytes without the length; for a long or double its eight bytes;
         * for a boolean its one byte; for a record, array or map the whole value with its tag, as
         * {@link #fields} hands it out. A record leaves a null field out: a null is refused, as
         * {@link #fields} refuses it.
         */
        void field(String name, int tag, byte[] canonical, int start, int end);
    }

    /**
     * Walks the top-level fields of canonical statement bytes without building a map or copying a
     * value: what {@link #fields} reads, told to {@code visitor} field by field (an export makes a
     * row of every record this way). Malformed bytes throw IllegalArgumentException as {@link
     * #fields} does; a field named twice is told twice.
     */
    public static void walk(byte[] canonical, FieldVisitor visitor) {
        Cursor r = new Cursor(canonical);
        for (byte b : CanonicalWriter.MAGIC) {
            if (r.u8() != (b & 0xFF)) {
                throw new IllegalArgumentException("canonical statement does not start with ELS1");
            }
        }
        if (r.u8() != 0x07) {
            throw new IllegalArgumentException("canonical value is not a record");
        }
        r.skipBytes();
        long n = r.uvarint();
        for (long i = 0; i < n; i++) {
            String name = r.str();
            int at = r.pos;
            int tag = r.u8();
            switch (tag) {
                case 0x01 -> {
                    r.u8();
                    visitor.field(name, tag, canonical, r.pos - 1, r.pos);
                }
                case 0x02, 0x03 -> {
                    int start = r.pos;
                    r.int64();
                    visitor.field(name, tag, canonical, start, r.pos);
                }
                case 0x04, 0x05, 0x06 -> {
                    int len = r.checkedLength(r.uvarint());
                    int start = r.pos;
                    r.pos += len;
                    visitor.field(name, tag, canonical, start, r.pos);
                }
                case 0x07, 0x08, 0x09 -> {
                    r.pos = at;
                    r.skipValue();
                    visitor.field(name, tag, canonical, at, r.pos);
                }
                default -> throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + at);
            }
        }
        if (r.pos != canonical.length) {
            throw new IllegalArgumentException("canonical value has " + (canonical.length - r.pos) + " trailing bytes");
        }
    }

    /**
     * The statement format of canonical statement bytes (docs/personal-data.md): the top-level
     * {@code format_version}, or 1 where it is absent (format 1 writes it as null, so it is left
     * out). Format 2 is the committed form, whose entries hold commitments in place of personal
     * values: what may be served to anyone. Malformed bytes throw IllegalArgumentException.
     */
    public static long formatVersion(byte[] canonical) {
        Object v = fields(canonical).get("format_version");
        if (v == null) {
            return 1;
        }
        if (!(v instanceof Long n)) {
            throw new IllegalArgumentException("format_version is not a number");
        }
        return n;
    }

    /**
     * Whether canonical statement bytes hold a personal value in the clear: a statement in format 1
     * with any of the personal fields ({@link PersonalCommitment#PATHS}). A statement in the committed
     * form never does (its rules refuse one), nor does a format 1 statement without any (a seal, an
     * election published): such entries may be served to anyone (docs/personal-data.md "What each
     * role sees"). Malformed bytes throw IllegalArgumentException.
     */
    public static boolean holdsPersonalValue(byte[] canonical) {
        Map<String, Object> top = fields(canonical);
        Object format = top.get("format_version");
        if (format != null) {
            return !(format instanceof Long n) || n < 2;
        }
        Map<String, Object> body = top.get("body") instanceof byte[] b ? record(b) : Map.of();
        for (String path : PersonalCommitment.PATHS) {
            Object v = path.startsWith("body.") ? body.get(path.substring(5)) : top.get(path);
            if (v != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether any of the entries holds a personal value in the clear ({@link #holdsPersonalValue}):
     * an entry bundle of none of them is public (the query API, the publisher).
     */
    public static boolean anyHoldsPersonalValue(List<byte[]> entries) {
        for (byte[] e : entries) {
            if (holdsPersonalValue(e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The fields of a nested record as {@link #fields} returns them, from its canonical value bytes
     * (tag 0x07, as {@link #fields} hands out a record-valued field).
     */
    public static Map<String, Object> record(byte[] value) {
        return recordToEnd(new Cursor(value), value);
    }

    /**
     * The entries of a map as {@link #fields} returns a record's fields, from its canonical value
     * bytes (tag 0x09, as {@link #fields} hands out a map-valued field, for example a statement's
     * {@code commitments}: path to 32 bytes).
     */
    public static Map<String, Object> map(byte[] value) {
        Cursor r = new Cursor(value);
        if (r.u8() != 0x09) {
            throw new IllegalArgumentException("canonical value is not a map");
        }
        return entriesToEnd(r, value);
    }

    /**
     * A nested value (a record, array or map as {@link #fields} hands it out) decoded whole: a
     * record or map as an ordered map of its entries, an array as a list, each scalar as {@link
     * #fields} gives it (a null as null), nested values decoded in turn. What an export writes as
     * JSON. More than {@link #MAX_DEPTH} levels are refused.
     */
    public static Object value(byte[] value) {
        Cursor r = new Cursor(value);
        Object out = r.value(0);
        if (r.pos != value.length) {
            throw new IllegalArgumentException("canonical value has " + (value.length - r.pos) + " trailing bytes");
        }
        return out;
    }

    private static Map<String, Object> recordToEnd(Cursor r, byte[] canonical) {
        if (r.u8() != 0x07) {
            throw new IllegalArgumentException("canonical value is not a record");
        }
        r.str();
        return entriesToEnd(r, canonical);
    }

    /** {@code uvarint(n) { str(name) value }} to the end of {@code canonical}. */
    private static Map<String, Object> entriesToEnd(Cursor r, byte[] canonical) {
        long n = r.uvarint();
        Map<String, Object> out = new LinkedHashMap<>();
        for (long i = 0; i < n; i++) {
            String name = r.str();
            int start = r.pos;
            int tag = r.u8();
            switch (tag) {
                case 0x01 -> out.put(name, r.u8() != 0);
                case 0x02 -> out.put(name, r.int64());
                case 0x03 -> out.put(name, Double.longBitsToDouble(r.int64()));
                case 0x04, 0x06 -> out.put(name, r.str());
                case 0x05 -> out.put(name, r.bytes());
                case 0x07, 0x08, 0x09 -> {
                    r.pos = start;
                    r.skipValue();
                    out.put(name, Arrays.copyOfRange(canonical, start, r.pos));
                }
                default -> throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + start);
            }
        }
        if (r.pos != canonical.length) {
            throw new IllegalArgumentException("canonical value has " + (canonical.length - r.pos) + " trailing bytes");
        }
        return out;
    }

    /** A cursor over canonical bytes. */
    private static final class Cursor extends ByteCursor {
        Cursor(byte[] b) {
            super(b, 0, "canonical statement");
        }

        long int64() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | u8();
            }
            return v;
        }

        byte[] bytes() {
            int len = checkedLength(uvarint());
            byte[] out = Arrays.copyOfRange(in, pos, pos + len);
            pos += len;
            return out;
        }

        String str() {
            int len = checkedLength(uvarint());
            String out = new String(in, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return out;
        }

        void skipBytes() {
            int len = checkedLength(uvarint()); // read before pos is: the varint moves it
            pos += len;
        }

        /** One value decoded whole, {@code depth} levels in. */
        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException(
                        "canonical value nested deeper than " + MAX_DEPTH + " levels at byte " + pos);
            }
            int at = pos;
            int tag = u8();
            switch (tag) {
                case 0x00:
                    return null;
                case 0x01:
                    return u8() != 0;
                case 0x02:
                    return int64();
                case 0x03:
                    return Double.longBitsToDouble(int64());
                case 0x04:
                case 0x06:
                    return str();
                case 0x05:
                    return bytes();
                case 0x07:
                case 0x09: {
                    if (tag == 0x07) {
                        str(); // the record's name
                    }
                    long n = uvarint();
                    Map<String, Object> out = new LinkedHashMap<>();
                    for (long i = 0; i < n; i++) {
                        String name = str();
                        out.put(name, value(depth + 1));
                    }
                    return out;
                }
                case 0x08: {
                    long n = uvarint();
                    List<Object> out = new ArrayList<>();
                    for (long i = 0; i < n; i++) {
                        out.add(value(depth + 1));
                    }
                    return out;
                }
                default:
                    throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + at);
            }
        }

        /**
         * Skips one value, nested or not, without recursion (issue 61 item 9: a hostile entry nested
         * a hundred thousand deep must not end its reader with a StackOverflowError): the open
         * records, arrays and maps are counted on a stack of their own, at most {@link #MAX_DEPTH}.
         */
        void skipValue() {
            // per open record, array or map: {values left, 1 when each value follows a name}
            ArrayDeque<long[]> open = new ArrayDeque<>();
            while (true) {
                int at = pos;
                int tag = u8();
                switch (tag) {
                    case 0x00 -> {}
                    case 0x01 -> u8();
                    case 0x02, 0x03 -> int64();
                    case 0x04, 0x05, 0x06 -> bytes();
                    case 0x07 -> {
                        str();
                        open.push(new long[] {uvarint(), 1});
                    }
                    case 0x08 -> open.push(new long[] {uvarint(), 0});
                    case 0x09 -> open.push(new long[] {uvarint(), 1});
                    default -> throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + at);
                }
                if (open.size() > MAX_DEPTH) {
                    throw new IllegalArgumentException(
                            "canonical value nested deeper than " + MAX_DEPTH + " levels at byte " + at);
                }
                while (!open.isEmpty() && open.peek()[0] == 0) {
                    open.pop();
                }
                if (open.isEmpty()) {
                    return;
                }
                open.peek()[0]--;
                if (open.peek()[1] == 1) {
                    str();
                }
            }
        }
    }
}
