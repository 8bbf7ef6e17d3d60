package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A nested canonical value (a record, array or map, as {@link CanonicalStatementReader#walk} finds
 * it) as the JSON text an export writes for it (decision 138): objects with their keys in String
 * order, arrays in order, strings as they are, longs in decimal, booleans, bytes in base64 with
 * padding, null as null, no spaces. That is what Jackson writes for {@link
 * CanonicalStatementReader#value} with its map entries ordered by key, made here in one pass over
 * the bytes with no map or list in between (an export renders a body for every record). A value
 * this leaves to that general path gives null: one holding a double, a string or name that JSON
 * escapes (a quote, a backslash, a control character), a name twice in one record or map, or
 * nesting deeper than {@link CanonicalStatementReader#MAX_DEPTH}.
 */
public final class CanonicalJson {
    private CanonicalJson() {}

    /** The JSON text of the value in {@code canonical[start, end)}, or null (see the class). */
    public static String json(byte[] canonical, int start, int end) {
        Cursor c = new Cursor(canonical, start);
        StringBuilder out = new StringBuilder(Math.max(16, (end - start) * 2));
        if (!c.write(out, 0)) {
            return null;
        }
        if (c.pos != end) {
            throw new IllegalArgumentException("canonical value has " + (end - c.pos) + " trailing bytes");
        }
        return out.toString();
    }

    private static final class Cursor extends ByteCursor {
        Cursor(byte[] in, int start) {
            super(in, start, "canonical value");
        }

        /** Appends one value; false when it is one for the general path. */
        boolean write(StringBuilder out, int depth) {
            if (depth > CanonicalStatementReader.MAX_DEPTH) {
                return false;
            }
            int at = pos;
            int tag = u8();
            switch (tag) {
                case 0x00 -> out.append("null");
                case 0x01 -> out.append(u8() != 0);
                case 0x02 -> {
                    long v = 0;
                    for (int i = 0; i < 8; i++) {
                        v = (v << 8) | u8();
                    }
                    out.append(v);
                }
                case 0x04, 0x06 -> {
                    return string(out);
                }
                case 0x05 -> {
                    int len = checkedLength(uvarint());
                    out.append('"')
                            .append(Base64.getEncoder().encodeToString(Arrays.copyOfRange(in, pos, pos + len)))
                            .append('"');
                    pos += len;
                }
                case 0x07, 0x09 -> {
                    if (tag == 0x07) {
                        int name = checkedLength(uvarint()); // the record's name, read before pos moves
                        pos += name;
                    }
                    return entries(out, depth);
                }
                case 0x08 -> {
                    long n = uvarint();
                    out.append('[');
                    for (long i = 0; i < n; i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        if (!write(out, depth + 1)) {
                            return false;
                        }
                    }
                    out.append(']');
                }
                case 0x03 -> {
                    return false; // Jackson's rendering of a double is left to Jackson
                }
                default -> throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + at);
            }
            return true;
        }

        /** A string's text in quotes; false when JSON would escape any of it. */
        private boolean string(StringBuilder out) {
            int len = checkedLength(uvarint());
            for (int i = pos; i < pos + len; i++) {
                int b = in[i];
                if ((b >= 0 && b < 0x20) || b == '"' || b == '\\') {
                    return false;
                }
            }
            out.append('"')
                    .append(new String(in, pos, len, StandardCharsets.UTF_8))
                    .append('"');
            pos += len;
            return true;
        }

        /** A record's or map's entries as an object, keys in String order. */
        private boolean entries(StringBuilder out, int depth) {
            long n = uvarint();
            if (n > in.length - pos) {
                throw new IllegalArgumentException(
                        "canonical value: " + n + " entries run past the end at byte " + pos);
            }
            int count = (int) n;
            String[] names = new String[count];
            int[] from = new int[count];
            int[] to = new int[count];
            int open = out.length();
            out.append('{');
            boolean sorted = true;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    out.append(',');
                }
                from[i] = out.length();
                int nameAt = out.length();
                if (!string(out)) {
                    return false;
                }
                names[i] = out.substring(nameAt + 1, out.length() - 1);
                out.append(':');
                if (!write(out, depth + 1)) {
                    return false;
                }
                to[i] = out.length();
                if (i > 0) {
                    int order = names[i - 1].compareTo(names[i]);
                    if (order == 0) {
                        return false; // a name twice: the general path keeps the last value
                    }
                    sorted &= order < 0;
                }
            }
            if (!sorted) {
                Integer[] order = new Integer[count];
                for (int i = 0; i < count; i++) {
                    order[i] = i;
                }
                Arrays.sort(order, (a, b) -> names[a].compareTo(names[b]));
                for (int i = 1; i < count; i++) {
                    if (names[order[i - 1]].equals(names[order[i]])) {
                        return false;
                    }
                }
                String written = out.substring(open + 1);
                out.setLength(open + 1);
                for (int i = 0; i < count; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    int e = order[i];
                    out.append(written, from[e] - open - 1, to[e] - open - 1);
                }
            }
            out.append('}');
            return true;
        }
    }
}
