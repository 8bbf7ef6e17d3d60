package org.electorallog.statement;

import java.util.Arrays;

/** A byte array that grows as it is written: the output of {@link StoredStatement}'s walks. */
final class GrowingBytes {
    private byte[] b;
    private int n;

    GrowingBytes(int capacity) {
        b = new byte[Math.max(16, capacity)];
    }

    GrowingBytes put(int x) {
        room(1);
        b[n++] = (byte) x;
        return this;
    }

    GrowingBytes putAll(byte[] x) {
        return putRange(x, 0, x.length);
    }

    GrowingBytes putRange(byte[] x, int from, int len) {
        room(len);
        System.arraycopy(x, from, b, n, len);
        n += len;
        return this;
    }

    GrowingBytes uvarint(long v) {
        while ((v & ~0x7FL) != 0) {
            put((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        return put((int) v);
    }

    private void room(int more) {
        if (n + more > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + more));
        }
    }

    byte[] toArray() {
        return Arrays.copyOf(b, n);
    }

    /** The bytes of v as a minimal unsigned LEB128 varint. */
    static int uvarintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
