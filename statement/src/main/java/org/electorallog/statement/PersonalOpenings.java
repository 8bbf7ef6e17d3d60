package org.electorallog.statement;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The openings of a committed statement (its personal values and their salts) and their
 * encryption under a content key that travels wrapped to the day's data key ({@link ContentKeys};
 * docs/personal-data.md "The openings"):
 *
 * <pre>
 * plaintext  = uvarint(n) { str(path) salt[16] str(value) }     sorted by path (UTF-8 bytes, unsigned)
 * ciphertext = AES-256-GCM(content_key, nonce[12], plaintext,
 *                          aad = "electoral-log/personal/v1" 0x00 leaf_hash)   (128-bit tag appended)
 * </pre>
 *
 * The additional data binds a ciphertext to the one statement whose leaf hash it names.
 */
public final class PersonalOpenings {
    /** One personal value with its salt, at its field path (equality compares the salt's bytes). */
    @SuppressWarnings("ArrayRecordComponent") // defensive copies; equals and hashCode compare contents
    public record Opening(String path, byte[] salt, String value) {
        public Opening {
            if (salt.length != PersonalCommitment.SALT_BYTES) {
                throw new IllegalArgumentException("a salt is " + PersonalCommitment.SALT_BYTES + " bytes");
            }
            salt = salt.clone();
        }

        @Override
        public byte[] salt() {
            return salt.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Opening x
                    && x.path.equals(path)
                    && Arrays.equals(x.salt, salt)
                    && x.value.equals(value);
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + value.hashCode();
        }

        @Override
        public String toString() {
            return "Opening[" + path + "]"; // never the value: logs must not carry it
        }
    }

    /**
     * An encrypted set of openings: the data key's ID, the content key wrapped to it ({@link
     * ContentKeys}; empty when sealed directly with a day's AES key, before issue 66), the nonce
     * and the ciphertext with its tag.
     */
    @SuppressWarnings("ArrayRecordComponent") // bytes carried to and from the envelope, never compared as a value
    public record Sealed(String keyId, byte[] wrappedKey, byte[] nonce, byte[] ciphertext) {
        public Sealed {
            wrappedKey = wrappedKey.clone();
            nonce = nonce.clone();
            ciphertext = ciphertext.clone();
        }

        /** Openings sealed directly with a day's AES key (before issue 66). */
        public Sealed(String keyId, byte[] nonce, byte[] ciphertext) {
            this(keyId, new byte[0], nonce, ciphertext);
        }

        @Override
        public byte[] wrappedKey() {
            return wrappedKey.clone();
        }

        @Override
        public byte[] nonce() {
            return nonce.clone();
        }

        @Override
        public byte[] ciphertext() {
            return ciphertext.clone();
        }
    }

    /** The domain string of the additional authenticated data, followed by 0x00 and the leaf hash. */
    public static final String AAD_DOMAIN = "electoral-log/personal/v1";

    /** Bytes of a data key (AES-256). */
    public static final int KEY_BYTES = 32;

    /** Bytes of a GCM nonce. */
    public static final int NONCE_BYTES = 12;

    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PersonalOpenings() {}

    /** The plaintext encoding of {@code openings}, sorted by path; two openings of one path are refused. */
    public static byte[] encode(List<Opening> openings) {
        List<Opening> sorted = new ArrayList<>(openings);
        sorted.sort(Comparator.comparing(o -> o.path().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * sorted.size() + 1);
        PersonalCommitment.uvarint(out, sorted.size());
        String previous = null;
        for (Opening o : sorted) {
            if (o.path().equals(previous)) {
                throw new IllegalArgumentException("two openings of " + o.path());
            }
            previous = o.path();
            PersonalCommitment.str(out, o.path());
            out.writeBytes(o.salt);
            PersonalCommitment.str(out, o.value());
        }
        return out.toByteArray();
    }

    /** The openings {@link #encode} wrote; anything else is an {@link IllegalArgumentException} saying where. */
    public static List<Opening> decode(byte[] plaintext) {
        ByteBuffer in = ByteBuffer.wrap(plaintext);
        long n = uvarint(in);
        if (n > plaintext.length) {
            throw new IllegalArgumentException("openings: count " + n + " is more than the bytes allow");
        }
        List<Opening> out = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            String path = str(in);
            if (in.remaining() < PersonalCommitment.SALT_BYTES) {
                throw new IllegalArgumentException("openings: salt of " + path + " cut short");
            }
            byte[] salt = new byte[PersonalCommitment.SALT_BYTES];
            in.get(salt);
            out.add(new Opening(path, salt, str(in)));
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("openings: " + in.remaining() + " bytes after the last opening");
        }
        if (!Arrays.equals(encode(out), plaintext)) {
            throw new IllegalArgumentException("openings: not in path order, or a path twice");
        }
        return out;
    }

    /** A fresh random data key of {@link #KEY_BYTES} bytes. */
    public static byte[] newKey() {
        byte[] k = new byte[KEY_BYTES];
        RANDOM.nextBytes(k);
        return k;
    }

    /**
     * {@code openings} encrypted under {@code contentKey} for the statement with {@code leafHash},
     * carrying {@code wrappedKey} (the content key wrapped to data key {@code keyId}, {@link
     * ContentKeys#wrap}).
     */
    public static Sealed seal(
            String keyId, byte[] wrappedKey, byte[] contentKey, byte[] leafHash, List<Opening> openings) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return seal(keyId, wrappedKey, contentKey, nonce, leafHash, openings);
    }

    /**
     * {@code openings} encrypted directly under a day's AES key (named {@code keyId}), as producers
     * sealed them before issue 66; kept for the tests of old events.
     */
    public static Sealed seal(String keyId, byte[] key, byte[] leafHash, List<Opening> openings) {
        return seal(keyId, new byte[0], key, leafHash, openings);
    }

    /** {@link #seal(String, byte[], byte[], List)} with a given nonce (the test vectors); never reuse one. */
    static Sealed sealWithNonce(String keyId, byte[] key, byte[] nonce, byte[] leafHash, List<Opening> openings) {
        return seal(keyId, new byte[0], key, nonce, leafHash, openings);
    }

    private static Sealed seal(
            String keyId, byte[] wrappedKey, byte[] key, byte[] nonce, byte[] leafHash, List<Opening> openings) {
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, key, nonce, leafHash);
            return new Sealed(keyId, wrappedKey, nonce, c.doFinal(encode(openings)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused a 32-byte key", e);
        }
    }

    /**
     * The openings in {@code sealed}, decrypted with {@code key} (the content key, or a day's AES key
     * before issue 66) for the statement with {@code
     * leafHash}; an {@link IllegalArgumentException} when the key, the leaf hash or a byte of the
     * ciphertext is not the one it was sealed with.
     */
    public static List<Opening> open(Sealed sealed, byte[] key, byte[] leafHash) {
        if (sealed.nonce.length != NONCE_BYTES) {
            throw new IllegalArgumentException(
                    "openings: a nonce is " + NONCE_BYTES + " bytes, not " + sealed.nonce.length);
        }
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, key, sealed.nonce, leafHash);
            return decode(c.doFinal(sealed.ciphertext));
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException(
                    "openings: the ciphertext does not authenticate with key " + sealed.keyId + " for this statement");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("openings: cannot decrypt: " + e.getMessage());
        }
    }

    /**
     * The thread's AES-GCM cipher for decrypting, initialised again for each statement: a new one would look up the
     * provider and expand the key each time, which the JDK skips for the key it expanded last (the
     * projector opens a day's statements with one key).
     */
    private static final ThreadLocal<Cipher> CIPHER = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has AES/GCM/NoPadding", e);
        }
    });

    private static Cipher cipher(int mode, byte[] key, byte[] nonce, byte[] leafHash) throws GeneralSecurityException {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("a data key is " + KEY_BYTES + " bytes, not " + key.length);
        }
        // encryption takes a fresh cipher: the JDK refuses to encrypt twice with one key and nonce
        Cipher c = mode == Cipher.DECRYPT_MODE ? CIPHER.get() : Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        ByteArrayOutputStream aad = new ByteArrayOutputStream(64);
        aad.writeBytes(AAD_DOMAIN.getBytes(StandardCharsets.US_ASCII));
        aad.write(0);
        aad.writeBytes(leafHash);
        c.updateAAD(aad.toByteArray());
        return c;
    }

    /** Unsigned LEB128 from {@code in}; also {@link ProjectedOpenings}'s. */
    static long uvarint(ByteBuffer in) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (!in.hasRemaining()) {
                throw new IllegalArgumentException("openings: varint cut short");
            }
            int b = in.get() & 0xFF;
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("openings: varint too long");
    }

    /** {@code uvarint(length) UTF-8}, strictly decoded; also {@link ProjectedOpenings}'s. */
    static String str(ByteBuffer in) {
        long len = uvarint(in);
        if (len > in.remaining()) {
            throw new IllegalArgumentException(
                    "openings: a string of " + len + " bytes with " + in.remaining() + " left");
        }
        byte[] b = new byte[(int) len];
        in.get(b);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("openings: a string is not UTF-8");
        }
    }
}
