package org.electorallog.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * An Ed25519 verifier of C2SP signed notes, parsed from a verifier key
 * {@code <name>+<hex key ID>+<base64(0x01 || 32-byte public key)>} (C2SP signed-note, "Verifier
 * keys"). The key ID is {@code SHA-256(name || 0x0A || 0x01 || public key)[:4]}.
 */
public final class NoteVerifier {
    static final byte ALG_ED25519 = 0x01;

    private final String name;
    private final byte[] keyId;
    private final Ed25519PublicKeyParameters key;

    private NoteVerifier(String name, byte[] keyId, byte[] publicKey) {
        this.name = name;
        this.keyId = keyId;
        this.key = new Ed25519PublicKeyParameters(publicKey, 0);
    }

    /** Parses and checks a verifier key string. */
    public static NoteVerifier parse(String verifierKey) {
        String s = verifierKey.strip();
        String[] parts = s.split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "verifier key must be <name>+<hex key id>+<base64 key>, got '" + s + "'");
        }
        checkName(parts[0]);
        if (!parts[1].matches("[0-9a-f]{8}")) {
            throw new IllegalArgumentException(
                    "verifier key ID must be 8 lower-case hex digits, got '" + parts[1] + "'");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("verifier key has bad base64: " + e.getMessage());
        }
        if (raw.length != 33 || raw[0] != ALG_ED25519) {
            throw new IllegalArgumentException("verifier key must be an Ed25519 key (0x01 + 32 bytes)");
        }
        byte[] pub = Arrays.copyOfRange(raw, 1, 33);
        byte[] id = keyId(parts[0], pub);
        if (!Hex.encode(id).equals(parts[1])) {
            throw new IllegalArgumentException(
                    "verifier key ID " + parts[1] + " does not match the key (expected " + Hex.encode(id) + ")");
        }
        return new NoteVerifier(parts[0], id, pub);
    }

    /**
     * The 32-byte Ed25519 public key: the sender key of the statements the log signs itself ({@code
     * LogStatements} in the statement module).
     */
    public byte[] publicKey() {
        return key.getEncoded();
    }

    /** C2SP signed-note key ID of an Ed25519 key: SHA-256(name || 0x0A || 0x01 || key)[:4]. */
    public static byte[] keyId(String name, byte[] publicKey) {
        byte[] h = Hashes.sha256(name.getBytes(StandardCharsets.UTF_8), new byte[] {0x0A, ALG_ED25519}, publicKey);
        return Arrays.copyOf(h, 4);
    }

    /** Key names are non-empty UTF-8 without spaces or '+' (C2SP signed-note, "Signatures"). */
    static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("key name must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '+' || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        "key name '" + name + "' must not contain spaces, '+' or control characters");
            }
        }
    }

    public String name() {
        return name;
    }

    public byte[] keyId() {
        return keyId.clone();
    }

    /** The verifier key string this verifier was parsed from (C2SP signed-note, "Verifier keys"). */
    public String verifierKey() {
        byte[] pub = key.getEncoded();
        byte[] typed = new byte[pub.length + 1];
        typed[0] = ALG_ED25519;
        System.arraycopy(pub, 0, typed, 1, pub.length);
        return name + "+" + Hex.encode(keyId) + "+" + Base64.getEncoder().encodeToString(typed);
    }

    /** Raw Ed25519 verification. */
    public boolean verify(byte[] message, byte[] signature) {
        if (signature.length != 64) {
            return false;
        }
        Ed25519Signer s = new Ed25519Signer();
        s.init(false, key);
        s.update(message, 0, message.length);
        return s.verifySignature(signature);
    }

    /** Whether a signature line's key name and ID are this key's (C2SP signed-note: then its signature must verify). */
    public boolean matches(String sigName, byte[] sigKeyId) {
        return name.equals(sigName) && Arrays.equals(keyId, sigKeyId);
    }
}
