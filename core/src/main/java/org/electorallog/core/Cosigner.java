package org.electorallog.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.MLDSASigner;

/**
 * C2SP tlog-cosignature (v1.1.0-rc.1): a cosigner's timestamped signature over a checkpoint, of
 * either type the specification defines.
 *
 * <ul>
 *   <li>{@code cosignature/v1}, Ed25519 (signature type 0x04): key ID {@code SHA-256(name || "\n" ||
 *       0x04 || 32-byte key)[:4]}; the signature line carries {@code key ID || uint64 timestamp ||
 *       64-byte signature} over {@code "cosignature/v1\ntime <timestamp>\n"} and the checkpoint
 *       body, extension lines included ("Ed25519 signed message").
 *   <li>{@code subtree/v1}, ML-DSA-44 (FIPS 204, signature type 0x06): key ID {@code SHA-256(name ||
 *       "\n" || 0x06 || 1312-byte key)[:4]}; the line carries {@code key ID || uint64 timestamp ||
 *       2420-byte signature} over the {@code cosigned_message} of {@link #subtreeMessage} ("ML-DSA-44
 *       signed message"): it commits to the cosigner's name, the origin, the size and the root, and
 *       not to extension lines.
 * </ul>
 *
 * The log signs its checkpoints with an ML-DSA-44 key of this same form (C2SP tlog-checkpoint: "Logs
 * SHOULD use ML-DSA-44 cosignatures to sign the checkpoint"; signed-note type 0x06), so a {@link
 * NoteVerifier} of type 0x06 checks it through {@link Verifier}. ML-DSA-44 signing is deterministic
 * (FIPS 204 section 3.4 allows it; Bouncy Castle without a random source): the same key, time and
 * checkpoint give the same bytes.
 *
 * <p>Private keys are written as signed-note signer keys: {@code PRIVATE+KEY+<name>+<hex key
 * ID>+<base64(type || 32-byte seed)>}, type 0x01 for an Ed25519 witness key (as Go's {@code
 * note.GenerateKey} makes; it cosigns under its 0x04 key ID) and 0x06 for an ML-DSA-44 key, whose
 * 32-byte seed is FIPS 204's key generation seed ξ (decision 146).
 */
public final class Cosigner {
    static final byte ALG_COSIGNATURE_V1 = 0x04;
    static final byte ALG_SUBTREE_V1 = 0x06;
    /** FIPS 204 ML-DSA-44 public key length. */
    public static final int ML_DSA_44_PUBLIC_KEY_BYTES = 1312;
    /** FIPS 204 ML-DSA-44 signature length. */
    public static final int ML_DSA_44_SIGNATURE_BYTES = 2420;

    private static final byte[] SUBTREE_LABEL = "subtree/v1\n\0".getBytes(StandardCharsets.US_ASCII);

    private Cosigner() {}

    /** SHA-256(name || 0x0A || 0x04 || key)[:4]: the cosignature/v1 key ID. */
    public static byte[] keyId(String name, byte[] publicKey) {
        return keyId(name, ALG_COSIGNATURE_V1, publicKey);
    }

    /** SHA-256(name || 0x0A || type || key)[:4] (C2SP tlog-cosignature "Format"). */
    static byte[] keyId(String name, byte type, byte[] publicKey) {
        return Arrays.copyOf(
                Hashes.sha256(name.getBytes(StandardCharsets.UTF_8), new byte[] {0x0A, type}, publicKey), 4);
    }

    /** The message a cosignature/v1 signs. */
    static byte[] message(String checkpointBody, long timestamp) {
        return ("cosignature/v1\ntime " + timestamp + "\n" + checkpointBody).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The {@code cosigned_message} an ML-DSA-44 cosignature signs (C2SP tlog-cosignature "ML-DSA-44
     * signed message", RFC 8446 section 3 encoding): the 12-byte label {@code "subtree/v1\n\0"}, the
     * cosigner name and the origin each behind a one-byte length (1 to 255 bytes), and the timestamp,
     * start and end as big-endian uint64, then the 32-byte hash. A checkpoint is the subtree [0, size)
     * with its root; a subtree with {@code start > 0} carries timestamp 0.
     */
    public static byte[] subtreeMessage(
            String cosignerName, long timestamp, String origin, long start, long end, byte[] hash) {
        byte[] name = cosignerName.getBytes(StandardCharsets.UTF_8);
        byte[] log = origin.getBytes(StandardCharsets.UTF_8);
        if (name.length < 1 || name.length > 255 || log.length < 1 || log.length > 255) {
            throw new IllegalArgumentException("an ML-DSA-44 cosignature's cosigner name and origin are 1 to 255 "
                    + "bytes (C2SP tlog-cosignature), got " + name.length + " and " + log.length);
        }
        if (timestamp < 0 || start < 0 || end < start) {
            throw new IllegalArgumentException("a subtree is 0 <= start <= end with a timestamp >= 0, got [" + start
                    + ", " + end + ") at " + timestamp);
        }
        if (start != 0 && timestamp != 0) {
            throw new IllegalArgumentException("a subtree that does not start at 0 is signed with timestamp 0");
        }
        Hashes.checkHash(hash, "subtree hash");
        return ByteBuffer.allocate(SUBTREE_LABEL.length + 1 + name.length + 8 + 1 + log.length + 8 + 8 + 32)
                .put(SUBTREE_LABEL)
                .put((byte) name.length)
                .put(name)
                .putLong(timestamp)
                .put((byte) log.length)
                .put(log)
                .putLong(start)
                .putLong(end)
                .put(hash)
                .array();
    }

    /** The cosigned_message of a checkpoint's body (the subtree [0, size) with the checkpoint's root). */
    static byte[] subtreeMessage(String cosignerName, long timestamp, String checkpointBody) throws ProofException {
        Checkpoint c = Checkpoint.parse(checkpointBody);
        return subtreeMessage(cosignerName, timestamp, c.origin(), 0, c.size(), c.root());
    }

    /** A cosigner's private key, of either type, that signs cosignatures. */
    public static final class Key {
        private final String name;
        private final byte type;
        private final Ed25519PrivateKeyParameters ed25519; // type 0x04
        private final MLDSAPrivateKeyParameters mlDsa; // type 0x06
        private final byte[] publicKey;

        private Key(String name, byte type, byte[] seed) {
            NoteVerifier.checkName(name);
            if (seed.length != 32) {
                throw new IllegalArgumentException("a cosigner seed is 32 bytes, got " + seed.length);
            }
            this.name = name;
            this.type = type;
            if (type == ALG_SUBTREE_V1) {
                this.ed25519 = null;
                this.mlDsa = new MLDSAPrivateKeyParameters(MLDSAParameters.ml_dsa_44, seed);
                this.publicKey = mlDsa.getPublicKey();
            } else {
                this.ed25519 = new Ed25519PrivateKeyParameters(seed, 0);
                this.mlDsa = null;
                this.publicKey = ed25519.generatePublicKey().getEncoded();
            }
        }

        /** A new Ed25519 (cosignature/v1) key. */
        public static Key generate(String name) {
            return new Key(name, ALG_COSIGNATURE_V1, randomSeed());
        }

        /** A new ML-DSA-44 (subtree/v1) key. */
        public static Key generateMlDsa44(String name) {
            return new Key(name, ALG_SUBTREE_V1, randomSeed());
        }

        /** An ML-DSA-44 key from its 32-byte FIPS 204 key generation seed (tests, vectors). */
        public static Key mlDsa44FromSeed(String name, byte[] seed) {
            return new Key(name, ALG_SUBTREE_V1, seed.clone());
        }

        /**
         * A cosigner key from a signer key {@code PRIVATE+KEY+<name>+<hex key ID>+<base64(type ||
         * seed)>}: type 0x01, an Ed25519 signed-note key (as {@code keygen witness} writes and Go's
         * {@code note.GenerateKey} makes), cosigns under its cosignature/v1 key ID, as
         * transparency-dev/formats' cosigner does with such keys; type 0x06 is an ML-DSA-44 seed.
         */
        public static Key parse(String signerKey) {
            SignerKeyText k = SignerKeyText.parse(signerKey);
            if (k.is(NoteVerifier.ALG_ED25519, 32)) {
                NoteSigner signer = NoteSigner.parse(signerKey);
                return new Key(signer.name(), ALG_COSIGNATURE_V1, signer.seed());
            }
            if (!k.is(ALG_SUBTREE_V1, 32)) {
                throw new IllegalArgumentException(
                        "signer key must hold an Ed25519 seed (0x01 + 32 bytes) or an ML-DSA-44 seed (0x06 + 32 bytes)");
            }
            Key key = new Key(k.name(), ALG_SUBTREE_V1, k.material());
            if (!Hex.encode(key.keyId()).equals(k.keyIdHex())) {
                throw new IllegalArgumentException("signer key ID " + k.keyIdHex() + " does not match its key");
            }
            return key;
        }

        private static byte[] randomSeed() {
            byte[] seed = new byte[32];
            new SecureRandom().nextBytes(seed);
            return seed;
        }

        public String name() {
            return name;
        }

        /** Whether this is an ML-DSA-44 (subtree/v1) key rather than an Ed25519 (cosignature/v1) one. */
        public boolean postQuantum() {
            return type == ALG_SUBTREE_V1;
        }

        /** The key ID of this key (C2SP tlog-cosignature "Format"). */
        public byte[] keyId() {
            return Cosigner.keyId(name, type, publicKey);
        }

        /** The vkey: {@code name+hex(keyID)+base64(type || public key)}, type 0x04 or 0x06. */
        public String verifierKey() {
            return vkey(name, type, publicKey);
        }

        /**
         * The private signer key of an ML-DSA-44 key, {@code PRIVATE+KEY+<name>+<hex key
         * ID>+<base64(0x06 || seed)>}. Keep it secret; never log it. (An Ed25519 key's private form is
         * the signed-note key it was parsed from.)
         */
        public String signerKey() {
            if (mlDsa == null) {
                throw new IllegalStateException("an Ed25519 cosigner key's private form is its signed-note key");
            }
            return SignerKeyText.format(name, keyId(), ALG_SUBTREE_V1, mlDsa.getSeed());
        }

        /** The cosignature line over {@code checkpointBody} at {@code timestamp} (POSIX seconds). */
        public SignedNote.Signature cosign(String checkpointBody, long timestamp) {
            if (timestamp < 0) {
                throw new IllegalArgumentException("cosignature timestamp must not be negative");
            }
            byte[] sig;
            if (mlDsa != null) {
                try {
                    sig = signMlDsa(subtreeMessage(name, timestamp, checkpointBody));
                } catch (ProofException e) {
                    throw new IllegalArgumentException(
                            "an ML-DSA-44 cosignature is over a checkpoint: " + e.getMessage());
                }
            } else {
                Ed25519Signer s = new Ed25519Signer();
                s.init(true, ed25519);
                byte[] msg = message(checkpointBody, timestamp);
                s.update(msg, 0, msg.length);
                sig = s.generateSignature();
            }
            byte[] blob = ByteBuffer.allocate(8 + sig.length)
                    .putLong(timestamp)
                    .put(sig)
                    .array();
            return new SignedNote.Signature(name, keyId(), blob);
        }

        /**
         * The {@code subtree/v1} cosignature of the subtree {@code [start, end)} of {@code origin}
         * with hash {@code hash}, timestamp 0 (C2SP tlog-cosignature; what tlog-witness's {@code
         * sign-subtree} answers). Only an ML-DSA-44 key signs subtrees: {@code cosignature/v1} covers
         * checkpoints alone.
         */
        public SignedNote.Signature cosignSubtree(String origin, long start, long end, byte[] hash) {
            if (mlDsa == null) {
                throw new IllegalStateException("an Ed25519 (cosignature/v1) key does not sign subtrees");
            }
            byte[] sig = signMlDsa(subtreeMessage(name, 0, origin, start, end, hash));
            byte[] blob =
                    ByteBuffer.allocate(8 + sig.length).putLong(0).put(sig).array();
            return new SignedNote.Signature(name, keyId(), blob);
        }

        private byte[] signMlDsa(byte[] message) {
            MLDSASigner s = new MLDSASigner();
            s.init(true, mlDsa);
            s.update(message, 0, message.length);
            try {
                return s.generateSignature();
            } catch (org.bouncycastle.crypto.CryptoException e) {
                throw new IllegalStateException("ML-DSA-44 signing failed: " + e.getMessage(), e);
            }
        }

        @Override
        public String toString() {
            return "Cosigner.Key[" + name + "+" + Hex.encode(keyId()) + (postQuantum() ? " ML-DSA-44" : " Ed25519")
                    + "]";
        }
    }

    /** A cosigner's verifier: checks its cosignature on a note and returns the cosigned time. */
    public static final class Verifier {
        private final String name;
        private final byte type;
        private final byte[] keyId;
        private final byte[] publicKey;
        private final Ed25519PublicKeyParameters ed25519;
        private final MLDSAPublicKeyParameters mlDsa;

        private Verifier(String name, byte type, byte[] publicKey) {
            this.name = name;
            this.type = type;
            this.publicKey = publicKey;
            this.keyId = Cosigner.keyId(name, type, publicKey);
            this.ed25519 = type == ALG_COSIGNATURE_V1 ? new Ed25519PublicKeyParameters(publicKey, 0) : null;
            this.mlDsa =
                    type == ALG_SUBTREE_V1 ? new MLDSAPublicKeyParameters(MLDSAParameters.ml_dsa_44, publicKey) : null;
        }

        /** Parses a cosigner vkey of signature type 0x04 (Ed25519) or 0x06 (ML-DSA-44). */
        public static Verifier parse(String vkey) {
            String[] parts = vkey.strip().split("\\+", 3);
            if (parts.length != 3) {
                throw new IllegalArgumentException("cosigner key must be <name>+<hex key id>+<base64 key>");
            }
            NoteVerifier.checkName(parts[0]);
            byte[] raw;
            try {
                raw = Base64.getDecoder().decode(parts[2]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cosigner key has bad base64: " + e.getMessage());
            }
            Verifier v;
            if (raw.length == 33 && raw[0] == ALG_COSIGNATURE_V1) {
                v = new Verifier(parts[0], ALG_COSIGNATURE_V1, Arrays.copyOfRange(raw, 1, 33));
            } else if (raw.length == 1 + ML_DSA_44_PUBLIC_KEY_BYTES && raw[0] == ALG_SUBTREE_V1) {
                v = new Verifier(parts[0], ALG_SUBTREE_V1, Arrays.copyOfRange(raw, 1, raw.length));
            } else {
                throw new IllegalArgumentException("cosigner key must be an Ed25519 cosignature/v1 key (0x04 + 32 "
                        + "bytes) or an ML-DSA-44 subtree/v1 key (0x06 + 1312 bytes)");
            }
            if (!Hex.encode(v.keyId).equals(parts[1])) {
                throw new IllegalArgumentException("cosigner key ID " + parts[1] + " does not match the key");
            }
            return v;
        }

        public String name() {
            return name;
        }

        /** Whether this verifies ML-DSA-44 (subtree/v1) cosignatures rather than Ed25519 (cosignature/v1) ones. */
        public boolean postQuantum() {
            return type == ALG_SUBTREE_V1;
        }

        byte[] keyId() {
            return keyId.clone();
        }

        byte[] publicKey() {
            return publicKey.clone();
        }

        /** The vkey: {@code name+hex(keyID)+base64(type || public key)}. */
        public String verifierKey() {
            return vkey(name, type, publicKey);
        }

        /**
         * Finds this cosigner's cosignature on the note and verifies it; returns its timestamp. A note
         * without it, or with a bad one, is a ProofException.
         */
        public long verify(SignedNote note) throws ProofException {
            return ByteBuffer.wrap(cosignature(note).signature(), 0, 8).getLong();
        }

        /** This cosigner's verified cosignature line on the note (a ProofException when absent or bad). */
        public SignedNote.Signature cosignature(SignedNote note) throws ProofException {
            for (SignedNote.Signature s : note.signatures()) {
                if (s.name().equals(name) && Arrays.equals(s.keyId(), keyId)) {
                    check(note.text(), s.signature());
                    return s;
                }
            }
            throw new ProofException("the note carries no cosignature by " + name);
        }

        /**
         * Verifies {@code line} as this ML-DSA-44 cosigner's {@code subtree/v1} cosignature of the
         * subtree {@code [start, end)} of {@code origin} with hash {@code hash} (timestamp 0).
         */
        public void verifySubtree(String origin, long start, long end, byte[] hash, SignedNote.Signature line)
                throws ProofException {
            if (!postQuantum()) {
                throw new ProofException(name + " is an Ed25519 key: cosignature/v1 does not cover subtrees");
            }
            if (!line.name().equals(name) || !Arrays.equals(line.keyId(), keyId)) {
                throw new ProofException("the line is not by " + name);
            }
            byte[] blob = line.signature();
            if (blob.length != 8 + ML_DSA_44_SIGNATURE_BYTES
                    || ByteBuffer.wrap(blob, 0, 8).getLong() != 0) {
                throw new ProofException("a subtree cosignature by " + name + " is timestamp 0 and "
                        + ML_DSA_44_SIGNATURE_BYTES + " signature bytes");
            }
            byte[] msg = subtreeMessage(name, 0, origin, start, end, hash);
            MLDSASigner v = new MLDSASigner();
            v.init(false, mlDsa);
            v.update(msg, 0, msg.length);
            if (!v.verifySignature(Arrays.copyOfRange(blob, 8, blob.length))) {
                throw new ProofException("the subtree cosignature by " + name + " does not verify");
            }
        }

        /**
         * Verifies one signature line's bytes after the key ID ({@code uint64 timestamp ||
         * signature}) over the checkpoint body {@code text}; returns the timestamp.
         */
        long check(String text, byte[] blob) throws ProofException {
            int length = postQuantum() ? ML_DSA_44_SIGNATURE_BYTES : 64;
            if (blob.length != 8 + length) {
                throw new ProofException("cosignature by " + name + " must be " + (8 + length)
                        + " bytes after the key ID, got " + blob.length);
            }
            long ts = ByteBuffer.wrap(blob, 0, 8).getLong();
            if (ts < 0) {
                throw new ProofException("cosignature by " + name + " has a timestamp above 2^63-1");
            }
            byte[] sig = Arrays.copyOfRange(blob, 8, blob.length);
            boolean ok;
            if (postQuantum()) {
                byte[] msg = subtreeMessage(name, ts, text);
                MLDSASigner v = new MLDSASigner();
                v.init(false, mlDsa);
                v.update(msg, 0, msg.length);
                ok = v.verifySignature(sig);
            } else {
                Ed25519Signer v = new Ed25519Signer();
                v.init(false, ed25519);
                byte[] msg = message(text, ts);
                v.update(msg, 0, msg.length);
                ok = v.verifySignature(sig);
            }
            if (!ok) {
                throw new ProofException(
                        "cosignature by " + name + (postQuantum() ? " (ML-DSA-44)" : "") + " does not verify");
            }
            return ts;
        }
    }

    private static String vkey(String name, byte type, byte[] publicKey) {
        byte[] typed = new byte[publicKey.length + 1];
        typed[0] = type;
        System.arraycopy(publicKey, 0, typed, 1, publicKey.length);
        return name + "+" + Hex.encode(keyId(name, type, publicKey)) + "+"
                + Base64.getEncoder().encodeToString(typed);
    }
}
