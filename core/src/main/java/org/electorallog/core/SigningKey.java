package org.electorallog.core;

import java.security.SecureRandom;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * A raw Ed25519 key (RFC 8032, Bouncy Castle) for statement signatures: the sender's and the
 * system's signatures over canonical statement bytes. Its text form is the base64 of the 32-byte
 * seed; keep it secret and never log it.
 */
public final class SigningKey {
    private final Ed25519PrivateKeyParameters key;
    private final byte[] publicKey;

    private SigningKey(byte[] seed) {
        if (seed.length != 32) {
            throw new IllegalArgumentException("an Ed25519 seed is 32 bytes, got " + seed.length);
        }
        this.key = new Ed25519PrivateKeyParameters(seed, 0);
        this.publicKey = key.generatePublicKey().getEncoded();
    }

    public static SigningKey generate() {
        byte[] seed = new byte[32];
        new SecureRandom().nextBytes(seed);
        return new SigningKey(seed);
    }

    public static SigningKey fromSeed(byte[] seed) {
        return new SigningKey(seed.clone());
    }

    /** Parses the base64 text of a 32-byte seed. */
    public static SigningKey parse(String base64Seed) {
        byte[] seed;
        try {
            seed = Base64.getDecoder().decode(base64Seed.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("signing key is not base64: " + e.getMessage());
        }
        return new SigningKey(seed);
    }

    /** Base64 of the seed (secret). */
    public String seedBase64() {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    public byte[] publicKey() {
        return publicKey.clone();
    }

    public byte[] sign(byte[] message) {
        Ed25519Signer s = new Ed25519Signer();
        s.init(true, key);
        s.update(message, 0, message.length);
        return s.generateSignature();
    }

    /**
     * Ed25519 verification of {@code signature} over {@code message} by {@code publicKey}; false, never
     * an exception, for 32 bytes that are not a point of the curve (nothing verifies under them).
     */
    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
        return PublicKey.decode(publicKey).verify(message, signature);
    }

    /**
     * An Ed25519 public key decoded once (RFC 8032 section 5.1.3: the point is decompressed, about a
     * tenth of a verification's work) for many verifications: a batch signed by one sender decodes
     * its key once. Bytes that are not a key decode to a key under which nothing verifies.
     */
    public static final class PublicKey {
        private final Ed25519PublicKeyParameters point; // null: not 32 bytes, or not a point of the curve

        private PublicKey(Ed25519PublicKeyParameters point) {
            this.point = point;
        }

        /** The key of these 32 bytes; any other bytes (null included) give a key that verifies nothing. */
        public static PublicKey decode(byte[] publicKey) {
            if (publicKey == null || publicKey.length != Ed25519PublicKeyParameters.KEY_SIZE) {
                return new PublicKey(null);
            }
            try {
                return new PublicKey(new Ed25519PublicKeyParameters(publicKey, 0));
            } catch (IllegalArgumentException e) {
                return new PublicKey(null);
            }
        }

        /** RFC 8032 section 5.1.7 verification (pure Ed25519, no context) of a 64-byte signature. */
        public boolean verify(byte[] message, byte[] signature) {
            if (point == null || message == null || signature == null || signature.length != Ed25519.SIGNATURE_SIZE) {
                return false;
            }
            return point.verify(Ed25519.Algorithm.Ed25519, null, message, 0, message.length, signature, 0);
        }
    }

    @Override
    public String toString() {
        return "SigningKey[public " + Hex.encode(publicKey) + "]";
    }
}
