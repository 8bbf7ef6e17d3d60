package org.electorallog.statement;

/**
 * A position in bytes of the canonical statement grammar (schemas/README.md "Canonical bytes"), or of the
 * projection's stored form of it, with the reads both share: a byte, an unsigned LEB128 varint and a length checked
 * against the bytes left. Every read past the end or too long is an {@link IllegalArgumentException} naming the byte.
 */
class ByteCursor {
    final byte[] in;
    int pos;
    private final String what;

    /** {@code what} names the bytes in errors ("canonical statement", "stored statement"). */
    ByteCursor(byte[] in, int start, String what) {
        this.in = in;
        this.pos = start;
        this.what = what;
    }

    final int u8() {
        if (pos >= in.length) {
            throw new IllegalArgumentException(what + " truncated at byte " + pos);
        }
        return in[pos++] & 0xFF;
    }

    /** Unsigned LEB128, at most ten bytes. */
    final long uvarint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int x = u8();
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        throw new IllegalArgumentException(what + ": varint too long at byte " + pos);
    }

    /** A length just read, checked to lie within the bytes left. */
    final int checkedLength(long len) {
        if (len > in.length - pos) {
            throw new IllegalArgumentException(what + ": length " + len + " runs past the end at byte " + pos);
        }
        return (int) len;
    }
}
