package org.electorallog.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * A verifier of a log's signature on C2SP signed notes, parsed from a verifier key {@code
 * <name>+<hex key ID>+<base64(type || public key)>} (C2SP signed-note, "Verifier keys"), of one of two
 * signature types:
 *
 * <ul>
 *   <li>0x01, Ed25519 over the note text (signed-note "Ed25519 signatures"); key ID {@code
 *       SHA-256(name || 0x0A || 0x01 || public key)[:4]}. C2SP tlog-tiles requires it of a public log.
 *   <li>0x06, a timestamped ML-DSA-44 cosignature (C2SP tlog-cosignature {@code subtree/v1}) by the
 *       log over a checkpoint note, as C2SP tlog-checkpoint recommends; checked by {@link
 *       Cosigner.Verifier}. Only a checkpoint can carry it: the signed message is built from the
 *       origin, size and root.
 * </ul>
 */
public final class NoteVerifier {
    static final byte ALG_ED25519 = 0x01;

    private final String name;
    private final byte[] keyId;
    private final Ed25519PublicKeyParameters key; // type 0x01
    private final Cosigner.Verifier cosigner; // type 0x06

    private NoteVerifier(String name, byte[] keyId, byte[] publicKey) {
        this.name = name;
        this.keyId = keyId;
        this.key = new Ed25519PublicKeyParameters(publicKey, 0);
        this.cosigner = null;
    }

    private NoteVerifier(Cosigner.Verifier cosigner) {
        this.name = cosigner.name();
        this.keyId = cosigner.keyId();
        this.key = null;
        this.cosigner = cosigner;
    }

    /** Parses and checks a verifier key string (type 0x01 Ed25519 or 0x06 ML-DSA-44). */
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
        if (raw.length > 0 && raw[0] == Cosigner.ALG_SUBTREE_V1) {
            return new NoteVerifier(Cosigner.Verifier.parse(s));
        }
        if (raw.length != 33 || raw[0] != ALG_ED25519) {
            throw new IllegalArgumentException("verifier key must be an Ed25519 key (0x01 + 32 bytes) or an "
                    + "ML-DSA-44 key (0x06 + 1312 bytes)");
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
     * The public key: for an Ed25519 key, 32 bytes, the sender key of the statements the log signs
     * itself ({@code LogStatements} in the statement module); for an ML-DSA-44 key, 1312 bytes.
     */
    public byte[] publicKey() {
        return cosigner != null ? cosigner.publicKey() : key.getEncoded();
    }

    /** Whether this is an ML-DSA-44 key (signature type 0x06), which signs checkpoints and no statement. */
    public boolean postQuantum() {
        return cosigner != null;
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
        if (cosigner != null) {
            return cosigner.verifierKey();
        }
        byte[] pub = key.getEncoded();
        byte[] typed = new byte[pub.length + 1];
        typed[0] = ALG_ED25519;
        System.arraycopy(pub, 0, typed, 1, pub.length);
        return name + "+" + Hex.encode(keyId) + "+" + Base64.getEncoder().encodeToString(typed);
    }

    /**
     * Whether {@code signature} (a signature line's bytes after the key ID) verifies over the note
     * text {@code message}: Ed25519 over the text, or for type 0x06 the timestamped ML-DSA-44
     * cosignature over the checkpoint the text holds (false when the text is not a checkpoint).
     */
    public boolean verify(byte[] message, byte[] signature) {
        if (cosigner != null) {
            try {
                cosigner.check(new String(message, StandardCharsets.UTF_8), signature);
                return true;
            } catch (ProofException e) {
                return false;
            }
        }
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
