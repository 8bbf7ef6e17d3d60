package org.electorallog.core;

import java.util.HexFormat;

/** Lower-case hexadecimal text of hashes and key IDs. */
public final class Hex {
    private static final HexFormat HEX = HexFormat.of();

    private Hex() {}

    public static String encode(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    /** Decodes lower- or upper-case hex; throws IllegalArgumentException naming the problem. */
    public static byte[] decode(String hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("hex text must have an even length, got " + hex.length());
        }
        return HEX.parseHex(hex);
    }
}
