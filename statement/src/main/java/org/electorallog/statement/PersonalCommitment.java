package org.electorallog.statement;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.List;
import org.electorallog.core.Hashes;

/**
 * The salted commitment to one personal value of a statement in the committed form (format 2,
 * docs/personal-data.md "The committed form"):
 *
 * <pre>
 * commitment = SHA-256( "electoral-log/commitment/v1" 0x00
 *                       str(board) str(delivery_id) str(path) salt str(value) )
 * str(s)     = uvarint(length of UTF-8 s) UTF-8 s      (unsigned LEB128, as in the canonical bytes)
 * salt       = 16 bytes, fresh from a SecureRandom for every field of every statement
 * </pre>
 *
 * The board, delivery ID and path bind the commitment to one field of one statement; the salt makes
 * a value of little entropy (a country, an IPv4 address) impossible to test without it.
 */
public final class PersonalCommitment {
    /**
     * The personal fields of a statement, by path (docs/personal-data.md, schemas/README.md): its
     * {@code user_id} and {@code username}, and its body's {@code ip}, {@code country} and {@code
     * error}. Sorted; the committed form commits to each of them, everything else stays in the clear.
     */
    public static final List<String> PATHS = List.of("body.country", "body.error", "body.ip", "user_id", "username");

    /** The domain separation string, followed by one 0x00 byte. */
    public static final String DOMAIN = "electoral-log/commitment/v1";

    /** Bytes of a salt (128 bits). */
    public static final int SALT_BYTES = 16;

    /** Bytes of a commitment (SHA-256). */
    public static final int BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private PersonalCommitment() {}

    /** A fresh salt of {@link #SALT_BYTES} random bytes. */
    public static byte[] salt() {
        byte[] s = new byte[SALT_BYTES];
        RANDOM.nextBytes(s);
        return s;
    }

    /** The commitment to {@code value} at {@code path} of the statement {@code (board, deliveryId)}. */
    public static byte[] of(String board, String deliveryId, String path, byte[] salt, String value) {
        if (salt.length != SALT_BYTES) {
            throw new IllegalArgumentException("a salt is " + SALT_BYTES + " bytes, not " + salt.length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.writeBytes(DOMAIN.getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        str(out, board);
        str(out, deliveryId);
        str(out, path);
        out.writeBytes(salt);
        str(out, value);
        return Hashes.sha256(out.toByteArray()); // the thread's digest: the projector checks four a record
    }

    /** Whether {@code commitment} is the commitment to {@code value} with {@code salt}. */
    public static boolean opens(
            byte[] commitment, String board, String deliveryId, String path, byte[] salt, String value) {
        return salt.length == SALT_BYTES && MessageDigest.isEqual(commitment, of(board, deliveryId, path, salt, value));
    }

    /** {@code uvarint(length) UTF-8 bytes}. */
    static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        uvarint(out, b.length);
        out.writeBytes(b);
    }

    /** Unsigned LEB128. */
    static void uvarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
