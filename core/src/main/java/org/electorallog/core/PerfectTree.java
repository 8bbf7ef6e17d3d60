package org.electorallog.core;

/** Root of a perfect (power-of-two sized) run of hashes stored back to back. */
final class PerfectTree {
    private PerfectTree() {}

    /**
     * RFC 6962 MTH of the {@code count} (a power of two) hashes at {@code buf[offset*32 ..]}, each
     * already a hash of a perfect subtree of equal height.
     */
    static byte[] root(byte[] buf, int offset, int count) {
        if (Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("perfect subtree needs a power of two hashes, got " + count);
        }
        int start = offset * Hashes.HASH_SIZE;
        if (count == 1) {
            byte[] h = new byte[Hashes.HASH_SIZE];
            System.arraycopy(buf, start, h, 0, Hashes.HASH_SIZE);
            return h;
        }
        byte[] level = new byte[count * Hashes.HASH_SIZE];
        System.arraycopy(buf, start, level, 0, level.length);
        int n = count;
        while (n > 1) {
            for (int i = 0; i < n / 2; i++) {
                byte[] parent = Hashes.nodeHash(level, 2 * i * Hashes.HASH_SIZE);
                System.arraycopy(parent, 0, level, i * Hashes.HASH_SIZE, Hashes.HASH_SIZE);
            }
            n /= 2;
        }
        byte[] h = new byte[Hashes.HASH_SIZE];
        System.arraycopy(level, 0, h, 0, Hashes.HASH_SIZE);
        return h;
    }
}
