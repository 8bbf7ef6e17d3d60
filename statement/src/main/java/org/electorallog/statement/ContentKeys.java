package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.electorallog.core.Hex;

/**
 * The committed form's keys since issue 66 (docs/personal-data.md "The keys"): the log makes one
 * X25519 key pair per board and UTC day and keeps the private half; a producer holds only the
 * public half. It draws a random content key, encrypts the openings under it (AES-256-GCM, {@link
 * PersonalOpenings}) and sends it beside them wrapped to the day's public key with HPKE:
 *
 * <pre>
 * suite   = DHKEM(X25519, HKDF-SHA256) 0x0020, HKDF-SHA256 0x0001, AES-128-GCM 0x0001   (RFC 9180 section 7)
 * mode    = mode_base 0x00                                                                (RFC 9180 section 5.1.1)
 * info    = "electoral-log/personal/v2" 0x00 key_id
 * aad     = ""
 * wrapped = enc[32] || Seal(content_key)[32 + 16]                                         (single-shot, RFC 9180 section 6.1)
 * </pre>
 *
 * The info binds a wrapped key to its day's key ID, so it cannot be moved to another day. A
 * producer reuses its content key for one key ID, so the projector unwraps once per producer and
 * day; what a producer can open is its own statements of that day, which it had in the clear.
 * Erasing the day's private key makes every wrapped content key of that day, and so every opening,
 * unreadable for good.
 */
public final class ContentKeys {
    /** The domain of the HPKE info, followed by 0x00 and the key ID. */
    public static final String INFO_DOMAIN = "electoral-log/personal/v2";

    /** Bytes of a wrapped content key: the encapsulated key, the key and the tag. */
    public static final int WRAPPED_BYTES = 32 + PersonalOpenings.KEY_BYTES + 16;

    /** Bytes of an X25519 public or private key. */
    public static final int X25519_BYTES = 32;

    /** An X25519 key pair as bytes (RFC 7748); the private half is secret and never logged. */
    @SuppressWarnings("ArrayRecordComponent") // handed to HPKE and to the key store, never compared as a value
    public record KeyPair(byte[] publicKey, byte[] privateKey) {
        @Override
        public String toString() {
            return "KeyPair[" + Hex.encode(publicKey) + "]"; // never the private half
        }
    }

    private ContentKeys() {}

    private static HPKE hpke() {
        return new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256, HPKE.aead_AES_GCM128);
    }

    /** A fresh X25519 key pair for a board and day: the log's, never a producer's. */
    public static KeyPair newKeyPair() {
        HPKE h = hpke();
        AsymmetricCipherKeyPair kp = h.generatePrivateKey();
        return new KeyPair(h.serializePublicKey(kp.getPublic()), h.serializePrivateKey(kp.getPrivate()));
    }

    /** The public half of an X25519 private key. */
    public static byte[] publicKeyOf(byte[] privateKey) {
        HPKE h = hpke();
        return h.serializePublicKey(pair(privateKey).getPublic());
    }

    /** A fresh random content key of {@link PersonalOpenings#KEY_BYTES} bytes. */
    public static byte[] newContentKey() {
        return PersonalOpenings.newKey();
    }

    /** {@code contentKey} wrapped to the public key of {@code keyId} (the layout above). */
    public static byte[] wrap(String keyId, byte[] publicKey, byte[] contentKey) {
        if (publicKey.length != X25519_BYTES) {
            throw new IllegalArgumentException("an X25519 public key is 32 bytes, not " + publicKey.length);
        }
        if (contentKey.length != PersonalOpenings.KEY_BYTES) {
            throw new IllegalArgumentException("a content key is 32 bytes, not " + contentKey.length);
        }
        HPKE h = hpke();
        AsymmetricKeyParameter pk = h.deserializePublicKey(publicKey);
        try {
            byte[][] sealed = h.seal(pk, info(keyId), new byte[0], contentKey, null, null, null);
            byte[] enc = sealed[1];
            byte[] ct = sealed[0];
            byte[] out = Arrays.copyOf(enc, enc.length + ct.length);
            System.arraycopy(ct, 0, out, enc.length, ct.length);
            return out;
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException("HPKE refused to seal 32 bytes", e);
        }
    }

    /**
     * The content key in {@code wrapped}, unwrapped with the private key of {@code keyId}; an
     * {@link IllegalArgumentException} when it was wrapped to another key or another key ID, or a
     * byte of it changed.
     */
    public static byte[] unwrap(String keyId, byte[] privateKey, byte[] wrapped) {
        if (wrapped.length != WRAPPED_BYTES) {
            throw new IllegalArgumentException(
                    "a wrapped content key is " + WRAPPED_BYTES + " bytes, not " + wrapped.length);
        }
        HPKE h = hpke();
        byte[] enc = Arrays.copyOf(wrapped, 32);
        byte[] ct = Arrays.copyOfRange(wrapped, 32, wrapped.length);
        try {
            return h.open(enc, pair(privateKey), info(keyId), new byte[0], ct, null, null, null);
        } catch (InvalidCipherTextException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "the wrapped content key does not open with the private key of " + keyId);
        }
    }

    private static AsymmetricCipherKeyPair pair(byte[] privateKey) {
        if (privateKey.length != X25519_BYTES) {
            throw new IllegalArgumentException("an X25519 private key is 32 bytes, not " + privateKey.length);
        }
        X25519PrivateKeyParameters sk = new X25519PrivateKeyParameters(privateKey, 0);
        return new AsymmetricCipherKeyPair(sk.generatePublicKey(), sk);
    }

    private static byte[] info(String keyId) {
        byte[] domain = INFO_DOMAIN.getBytes(StandardCharsets.US_ASCII);
        byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[domain.length + 1 + id.length];
        System.arraycopy(domain, 0, out, 0, domain.length);
        System.arraycopy(id, 0, out, domain.length + 1, id.length);
        return out;
    }
}
