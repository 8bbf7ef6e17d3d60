package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The form in which the projection stores a canonical statement (store V22 {@code
 * records.statement}, docs/decisions.md 123): the same bytes with what the row already says taken
 * out, and given back exactly by {@link #canonical}. The canonical bytes spell out every field name
 * and repeat the board, the delivery ID and the election, area and ballot IDs that the row holds in
 * columns of its own; stored, a name is one byte and such a value is a one-byte reference, about a
 * third of the statement. The leaf hash, the signatures and every client see only the canonical
 * bytes; this form never leaves the projection.
 *
 * <pre>
 * stored     = 0x01 node          ; version 1; bytes beginning "ELS1" are canonical bytes, kept as they are
 * node       = the canonical value (schemas/README.md "Canonical statement bytes") but that
 *   a name    (record name, field name, enum symbol, map key) = uvarint(code)   when StatementNames gives it a code
 *                                                           = 0x00 str(name)  otherwise
 *   a string  = 0x0A + k          when it equals the row's value k (0 board, 1 delivery ID,
 *                                 2 election ID, 3 area ID, 4 ballot ID; {@link Row})
 *             = 0x04 str          otherwise
 * </pre>
 *
 * Encoding then decoding with the same row gives the canonical bytes back (property-tested in
 * {@code StoredStatementTest}); a stored form read with a row other than its own gives other bytes,
 * whose leaf the audit finds does not match the tree. Malformed input throws
 * IllegalArgumentException naming the offset.
 */
public final class StoredStatement {
    /** The first byte of the stored form, version 1. */
    static final int VERSION = 0x01;
    /** The first stored-form tag: a string equal to the row's value 0 ({@link Row}); 0x0A to 0x0E. */
    static final int REFERENCE = 0x0A;
    /** Nesting deeper than this is refused rather than recursed into (statements nest three deep). */
    private static final int MAX_DEPTH = 32;

    /**
     * The values of a record's row a stored statement may refer to: its board's name and its
     * delivery, election, area and ballot ID columns, none of which an erasure changes. Nulls refer
     * to nothing.
     */
    public record Row(String board, String deliveryId, String electionId, String areaId, String ballotId) {
        byte[][] utf8() {
            String[] values = {board, deliveryId, electionId, areaId, ballotId};
            byte[][] out = new byte[values.length][];
            for (int i = 0; i < values.length; i++) {
                out[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
            }
            return out;
        }
    }

    private StoredStatement() {}

    /** The stored form of canonical statement bytes in a row holding these values. */
    public static byte[] stored(byte[] canonical, Row row) {
        if (!startsWithMagic(canonical)) {
            throw new IllegalArgumentException("canonical statement does not start with ELS1");
        }
        GrowingBytes out = new GrowingBytes(canonical.length);
        out.put(VERSION);
        new Encoder(canonical, row.utf8(), out).whole();
        return out.toArray();
    }

    /**
     * The canonical statement bytes of a stored statement read with its row's values: the stored
     * form decoded, or canonical bytes (a row written before V22) as they are.
     */
    public static byte[] canonical(byte[] stored, Row row) {
        if (startsWithMagic(stored)) {
            return stored;
        }
        if (stored.length == 0 || (stored[0] & 0xFF) != VERSION) {
            throw new IllegalArgumentException(
                    "a stored statement is neither canonical (ELS1) nor of stored form " + VERSION);
        }
        GrowingBytes out = new GrowingBytes(stored.length * 3 / 2 + 64);
        out.putAll(CanonicalWriter.MAGIC);
        new Decoder(stored, row.utf8(), out).whole();
        return out.toArray();
    }

    private static boolean startsWithMagic(byte[] b) {
        return b.length >= CanonicalWriter.MAGIC.length
                && Arrays.equals(
                        b, 0, CanonicalWriter.MAGIC.length, CanonicalWriter.MAGIC, 0, CanonicalWriter.MAGIC.length);
    }

    /** Reads one form, writes the other: the walk both directions share. */
    private abstract static class Walk extends ByteCursor {
        final byte[][] row;
        final GrowingBytes out;

        Walk(byte[] in, byte[][] row, GrowingBytes out, int start, String what) {
            super(in, start, what);
            this.row = row;
            this.out = out;
        }

        /** The one value the input holds, and nothing after it. */
        final void whole() {
            node(0);
            if (pos != in.length) {
                throw new IllegalArgumentException(
                        (in.length - pos) + " bytes after the statement's end at byte " + pos);
            }
        }

        /** One value: its tag, then what the tag says, names and strings through the subclass. */
        final void node(int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("statement nested deeper than " + MAX_DEPTH + " at byte " + pos);
            }
            int tag = u8();
            switch (tag) {
                case 0x00 -> out.put(tag);
                case 0x01 -> out.put(tag).put(u8());
                case 0x02, 0x03 -> {
                    out.put(tag);
                    copy(8);
                }
                case 0x05 -> {
                    out.put(tag);
                    copyLengthAndBytes();
                }
                case 0x06 -> {
                    out.put(tag);
                    name();
                }
                case 0x07 -> {
                    out.put(tag);
                    name();
                    long n = copyUvarint();
                    for (long i = 0; i < n; i++) {
                        name();
                        node(depth + 1);
                    }
                }
                case 0x08 -> {
                    out.put(tag);
                    long n = copyUvarint();
                    for (long i = 0; i < n; i++) {
                        node(depth + 1);
                    }
                }
                case 0x09 -> {
                    out.put(tag);
                    long n = copyUvarint();
                    for (long i = 0; i < n; i++) {
                        name();
                        node(depth + 1);
                    }
                }
                default -> string(tag);
            }
        }

        /** A name in the input's form, written in the output's. */
        abstract void name();

        /** A string value (tag 0x04, or a reference in the stored form) in the input's form, written in the output's. */
        abstract void string(int tag);

        /** A uvarint copied byte for byte (a count or a length), so that any encoding of it comes back as it was. */
        final long copyUvarint() {
            int start = pos;
            long v = uvarint();
            out.putRange(in, start, pos - start);
            return v;
        }

        final void copy(int n) {
            out.putRange(in, pos, checkedLength(n));
            pos += n;
        }

        final void copyLengthAndBytes() {
            copy(checkedLength(copyUvarint()));
        }
    }

    private static final class Encoder extends Walk {
        Encoder(byte[] canonical, byte[][] row, GrowingBytes out) {
            super(canonical, row, out, CanonicalWriter.MAGIC.length, "canonical statement");
        }

        @Override
        void name() {
            int start = pos;
            int len = checkedLength(uvarint());
            // only a one-byte length is the minimal one a decoder writes back (names are short)
            int code = pos - start == 1 ? StatementNames.code(in, pos, len) : 0;
            if (code > 0) {
                out.uvarint(code);
            } else {
                out.put(0x00).putRange(in, start, pos - start + len);
            }
            pos += len;
        }

        @Override
        void string(int tag) {
            if (tag != 0x04) {
                throw new IllegalArgumentException("unknown canonical tag " + tag + " at byte " + (pos - 1));
            }
            int start = pos;
            int len = checkedLength(uvarint());
            boolean minimal = pos - start == GrowingBytes.uvarintSize(len);
            for (int k = 0; minimal && k < row.length; k++) {
                byte[] v = row[k];
                if (v != null && v.length == len && Arrays.equals(in, pos, pos + len, v, 0, len)) {
                    out.put(REFERENCE + k);
                    pos += len;
                    return;
                }
            }
            out.put(0x04).putRange(in, start, pos - start + len);
            pos += len;
        }
    }

    private static final class Decoder extends Walk {
        Decoder(byte[] stored, byte[][] row, GrowingBytes out) {
            super(stored, row, out, 1, "stored statement");
        }

        @Override
        void name() {
            long code = uvarint();
            if (code == 0) {
                copyLengthAndBytes();
            } else {
                byte[] name = StatementNames.utf8(code);
                out.uvarint(name.length).putAll(name);
            }
        }

        @Override
        void string(int tag) {
            if (tag == 0x04) {
                out.put(tag);
                copyLengthAndBytes();
            } else if (tag >= REFERENCE && tag < REFERENCE + row.length) {
                byte[] v = row[tag - REFERENCE];
                if (v == null) {
                    throw new IllegalArgumentException("the stored statement refers to the row's value "
                            + (tag - REFERENCE) + " at byte " + (pos - 1) + ", which the row does not have");
                }
                out.put(0x04).uvarint(v.length).putAll(v);
            } else {
                throw new IllegalArgumentException("unknown stored tag " + tag + " at byte " + (pos - 1));
            }
        }
    }
}
