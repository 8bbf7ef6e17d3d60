package org.electorallog.core;

import java.util.Arrays;
import java.util.Base64;

/**
 * The text form of a signed-note private key, as Go's {@code note} package writes it: {@code
 * PRIVATE+KEY+<name>+<hex key ID>+<base64(signature type || key material)>}. Parsed here once for
 * {@link NoteSigner} (type 0x01) and {@link Cosigner.Key} (0x01 or 0x06), which check the type, the
 * length and the key ID; messages never hold the key itself.
 */
@SuppressWarnings("ArrayRecordComponent") // a parsed secret, never compared as a value
record SignerKeyText(String name, String keyIdHex, byte[] typed) {
    static final String PREFIX = "PRIVATE+KEY+";

    static SignerKeyText parse(String signerKey) {
        String s = signerKey.strip();
        if (!s.startsWith(PREFIX)) {
            throw new IllegalArgumentException("signer key must start with " + PREFIX);
        }
        String[] parts = s.substring(PREFIX.length()).split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("signer key must be PRIVATE+KEY+<name>+<hex id>+<base64 key>");
        }
        try {
            return new SignerKeyText(parts[0], parts[1], Base64.getDecoder().decode(parts[2]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("signer key has bad base64: " + e.getMessage());
        }
    }

    /** The key material after the type byte, when the type is {@code type} and the material {@code length} bytes. */
    boolean is(byte type, int length) {
        return typed.length == length + 1 && typed[0] == type;
    }

    /** The key material after the type byte. */
    byte[] material() {
        return Arrays.copyOfRange(typed, 1, typed.length);
    }

    /** The text of a key: {@code PRIVATE+KEY+<name>+<hex key ID>+<base64(type || material)>}. */
    static String format(String name, byte[] keyId, byte type, byte[] material) {
        byte[] t = new byte[material.length + 1];
        t[0] = type;
        System.arraycopy(material, 0, t, 1, material.length);
        return PREFIX + name + "+" + Hex.encode(keyId) + "+"
                + Base64.getEncoder().encodeToString(t);
    }
}
