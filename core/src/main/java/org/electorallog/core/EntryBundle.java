package org.electorallog.core;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * C2SP tlog-tiles entry bundles ({@code tile/entries/<N>[.p/<W>]}): the entries of up to 256
 * consecutive leaves, each as a big-endian uint16 length followed by the entry bytes. An entry
 * longer than 65,535 bytes cannot be bundled and is refused, never truncated.
 */
public final class EntryBundle {
    /** The longest entry a bundle can carry. */
    public static final int MAX_ENTRY = 0xFFFF;

    private EntryBundle() {}

    public static byte[] encode(List<byte[]> entries) {
        if (entries.size() > TileLayout.TILE_WIDTH) {
            throw new IllegalArgumentException("an entry bundle holds at most 256 entries, got " + entries.size());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < entries.size(); i++) {
            byte[] e = entries.get(i);
            if (e.length > MAX_ENTRY) {
                throw new IllegalArgumentException(
                        "entry " + i + " is " + e.length + " bytes; an entry bundle entry is at most 65,535 bytes");
            }
            out.write(e.length >>> 8);
            out.write(e.length & 0xFF);
            out.writeBytes(e);
        }
        return out.toByteArray();
    }

    /** Decodes a bundle strictly: a truncated length or entry is an error naming the offset. */
    public static List<byte[]> decode(byte[] bundle) throws ProofException {
        List<byte[]> out = new ArrayList<>();
        int p = 0;
        while (p < bundle.length) {
            if (p + 2 > bundle.length) {
                throw new ProofException("entry bundle truncated in the length at byte " + p);
            }
            int len = ((bundle[p] & 0xFF) << 8) | (bundle[p + 1] & 0xFF);
            p += 2;
            if (p + len > bundle.length) {
                throw new ProofException("entry bundle truncated: entry " + out.size() + " needs " + len
                        + " bytes at byte " + p + ", only " + (bundle.length - p) + " left");
            }
            byte[] e = new byte[len];
            System.arraycopy(bundle, p, e, 0, len);
            out.add(e);
            p += len;
            if (out.size() > TileLayout.TILE_WIDTH) {
                throw new ProofException("entry bundle holds more than 256 entries");
            }
        }
        return out;
    }
}
