package org.electorallog.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * C2SP tlog-cosignature, Ed25519 ("cosignature/v1"): a witness's timestamped signature over a
 * checkpoint. The key ID is {@code SHA-256(name || "\n" || 0x04 || public key)[:4]}; the signature
 * line carries {@code key ID || uint64 timestamp (big-endian) || Ed25519 signature}; the signed
 * message is {@code "cosignature/v1\ntime <timestamp>\n"} followed by the checkpoint body.
 *
 * <p>Verification is what log clients use; signing is here for tests and for running a witness.
 */
public final class Cosigner {
    static final byte ALG_COSIGNATURE_V1 = 0x04;

    private Cosigner() {}

    /** SHA-256(name || 0x0A || 0x04 || key)[:4]. */
    public static byte[] keyId(String name, byte[] publicKey) {
        return Arrays.copyOf(
                Hashes.sha256(name.getBytes(StandardCharsets.UTF_8), new byte[] {0x0A, ALG_COSIGNATURE_V1}, publicKey),
                4);
    }

    /** The message a cosignature/v1 signs. */
    static byte[] message(String checkpointBody, long timestamp) {
        return ("cosignature/v1\ntime " + timestamp + "\n" + checkpointBody).getBytes(StandardCharsets.UTF_8);
    }

    /** A witness key that signs cosignatures. */
    public static final class Key {
        private final String name;
        private final Ed25519PrivateKeyParameters key;
        private final byte[] publicKey;

        private Key(String name, byte[] seed) {
            NoteVerifier.checkName(name);
            this.name = name;
            this.key = new Ed25519PrivateKeyParameters(seed, 0);
            this.publicKey = key.generatePublicKey().getEncoded();
        }

        public static Key generate(String name) {
            byte[] seed = new byte[32];
            new SecureRandom().nextBytes(seed);
            return new Key(name, seed);
        }

        /**
         * A witness key from a C2SP signed-note Ed25519 signer key
         * ({@code PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>}, as {@code keygen witness}
         * writes and Go's {@code note.GenerateKey} makes). The same seed signs cosignatures under
         * the cosignature/v1 key ID, as transparency-dev/formats' cosigner does with such keys.
         */
        public static Key parse(String signerKey) {
            NoteSigner signer = NoteSigner.parse(signerKey);
            return new Key(signer.name(), signer.seed());
        }

        public String name() {
            return name;
        }

        /** The cosignature/v1 key ID of this key (C2SP tlog-cosignature). */
        public byte[] keyId() {
            return Cosigner.keyId(name, publicKey);
        }

        /** The vkey: {@code name+hex(keyID)+base64(0x04 || public key)}. */
        public String verifierKey() {
            byte[] typed = new byte[33];
            typed[0] = ALG_COSIGNATURE_V1;
            System.arraycopy(publicKey, 0, typed, 1, 32);
            return name + "+" + Hex.encode(Cosigner.keyId(name, publicKey)) + "+"
                    + Base64.getEncoder().encodeToString(typed);
        }

        /** The cosignature line over {@code checkpointBody} at {@code timestamp} (POSIX seconds). */
        public SignedNote.Signature cosign(String checkpointBody, long timestamp) {
            if (timestamp < 0) {
                throw new IllegalArgumentException("cosignature timestamp must not be negative");
            }
            Ed25519Signer s = new Ed25519Signer();
            s.init(true, key);
            byte[] msg = message(checkpointBody, timestamp);
            s.update(msg, 0, msg.length);
            byte[] sig = s.generateSignature();
            byte[] blob =
                    ByteBuffer.allocate(8 + 64).putLong(timestamp).put(sig).array();
            return new SignedNote.Signature(name, Cosigner.keyId(name, publicKey), blob);
        }
    }

    /** A witness's verifier: checks its cosignature on a note and returns the cosigned time. */
    public static final class Verifier {
        private final String name;
        private final byte[] keyId;
        private final Ed25519PublicKeyParameters key;

        private Verifier(String name, byte[] publicKey) {
            this.name = name;
            this.keyId = keyId(name, publicKey);
            this.key = new Ed25519PublicKeyParameters(publicKey, 0);
        }

        /** Parses a cosigner vkey with signature type 0x04. */
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
            if (raw.length != 33 || raw[0] != ALG_COSIGNATURE_V1) {
                throw new IllegalArgumentException(
                        "cosigner key must be an Ed25519 cosignature/v1 key (0x04 + 32 bytes)");
            }
            Verifier v = new Verifier(parts[0], Arrays.copyOfRange(raw, 1, 33));
            if (!Hex.encode(v.keyId).equals(parts[1])) {
                throw new IllegalArgumentException("cosigner key ID " + parts[1] + " does not match the key");
            }
            return v;
        }

        public String name() {
            return name;
        }

        /** The vkey: {@code name+hex(keyID)+base64(0x04 || public key)}. */
        public String verifierKey() {
            byte[] typed = new byte[33];
            typed[0] = ALG_COSIGNATURE_V1;
            System.arraycopy(key.getEncoded(), 0, typed, 1, 32);
            return name + "+" + Hex.encode(keyId) + "+" + Base64.getEncoder().encodeToString(typed);
        }

        /**
         * Finds this witness's cosignature on the note and verifies it; returns its timestamp. A note
         * without it, or with a bad one, is a ProofException.
         */
        public long verify(SignedNote note) throws ProofException {
            return ByteBuffer.wrap(cosignature(note).signature(), 0, 8).getLong();
        }

        /** This witness's verified cosignature line on the note (a ProofException when absent or bad). */
        public SignedNote.Signature cosignature(SignedNote note) throws ProofException {
            for (SignedNote.Signature s : note.signatures()) {
                if (s.name().equals(name) && Arrays.equals(s.keyId(), keyId)) {
                    byte[] blob = s.signature();
                    if (blob.length != 8 + 64) {
                        throw new ProofException(
                                "cosignature by " + name + " must be 72 bytes after the key ID, got " + blob.length);
                    }
                    long ts = ByteBuffer.wrap(blob, 0, 8).getLong();
                    if (ts < 0) {
                        throw new ProofException("cosignature by " + name + " has a timestamp above 2^63-1");
                    }
                    Ed25519Signer v = new Ed25519Signer();
                    v.init(false, key);
                    byte[] msg = message(note.text(), ts);
                    v.update(msg, 0, msg.length);
                    if (!v.verifySignature(Arrays.copyOfRange(blob, 8, 72))) {
                        throw new ProofException("cosignature by " + name + " does not verify");
                    }
                    return s;
                }
            }
            throw new ProofException("the note carries no cosignature by " + name);
        }
    }
}
