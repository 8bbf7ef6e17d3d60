package org.electorallog.statement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.electorallog.core.Hex;

/**
 * The key-encryption keys (docs/personal-data.md "Keys at rest", decision 128): the data keys'
 * secret halves are kept in PostgreSQL only wrapped under a key that PostgreSQL never holds, read
 * from a file outside the database (a KMS would stand behind the same two calls). A database dump
 * or a standby alone opens nothing.
 *
 * <pre>
 * file    = base64(kek[32]) "\n"                           mode 0600 (refused when group or others may read it)
 * kek_id  = hex(SHA-256("electoral-log/kek/v1" 0x00 kek)[0..8])
 * wrapped = nonce[12] || AES-256-GCM(kek, nonce, secret, aad = "electoral-log/key-at-rest/v1" 0x00 key_id)
 * </pre>
 *
 * The first key wraps; every key listed unwraps what it wrapped (found by {@code kek_id}), which is
 * how a rotation goes: list the new key first, rewrap ({@code electoral-log keys rewrap}), drop the
 * old one.
 */
public final class KeyEncryptionKeys {
    /** One key-encryption key and its ID. */
    @SuppressWarnings("ArrayRecordComponent") // a key handed to the cipher, never compared as a value
    public record Key(String id, byte[] key) {
        public Key {
            if (key.length != 32) {
                throw new IllegalArgumentException("a key-encryption key is 32 bytes, not " + key.length);
            }
            key = key.clone();
        }

        @Override
        public String toString() {
            return "KeyEncryptionKey[" + id + "]"; // never the key
        }
    }

    /** No key: a process that must not open or make data keys (the query API, a producer). */
    public static final KeyEncryptionKeys NONE = new KeyEncryptionKeys(List.of());

    private static final String WRAP_DOMAIN = "electoral-log/key-at-rest/v1";
    private static final int NONCE_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final List<Key> keys;

    private KeyEncryptionKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    /** The keys of {@code raw}, the first one wrapping. */
    public static KeyEncryptionKeys of(List<byte[]> raw) {
        List<Key> keys = new ArrayList<>();
        for (byte[] k : raw) {
            keys.add(new Key(idOf(k), k));
        }
        return new KeyEncryptionKeys(keys);
    }

    /** A fresh random key, held in memory only (tests). */
    public static KeyEncryptionKeys generate() {
        return of(List.of(random()));
    }

    /**
     * The keys in {@code files}, the first one wrapping; an {@link IllegalArgumentException} saying
     * which file and why when one is missing, malformed, or readable by group or others.
     */
    public static KeyEncryptionKeys load(List<Path> files) {
        List<byte[]> raw = new ArrayList<>();
        for (Path f : files) {
            raw.add(read(f));
        }
        return of(raw);
    }

    /**
     * Writes a fresh key to {@code file} with mode 0600 and returns it; refuses to overwrite a file
     * (losing a key-encryption key loses every data key it wraps).
     */
    public static KeyEncryptionKeys create(Path file) throws IOException {
        byte[] k = random();
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString(), null, "a key-encryption key is never overwritten");
        }
        byte[] text = (Base64.getEncoder().encodeToString(k) + "\n").getBytes(StandardCharsets.US_ASCII);
        if (Files.getFileAttributeView(parent == null ? Path.of(".") : parent, PosixFileAttributeView.class) != null) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(file, text);
        } else {
            Files.write(file, text);
        }
        return of(List.of(k));
    }

    /** The keys in {@code file} when it exists, else a fresh key written there ({@link #create}). */
    public static KeyEncryptionKeys loadOrCreate(Path file) throws IOException {
        return Files.exists(file) ? load(List.of(file)) : create(file);
    }

    /** Whether there is no key (this process cannot open or make data keys). */
    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The ID of the key that wraps. */
    public String currentId() {
        return current().id();
    }

    /** The IDs of every key, the wrapping one first. */
    public List<String> ids() {
        return keys.stream().map(Key::id).toList();
    }

    /** {@code secret} (the secret half of data key {@code keyId}) wrapped under the first key. */
    public byte[] wrap(String keyId, byte[] secret) {
        Key k = current();
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k.key, "AES"), new GCMParameterSpec(128, nonce));
            c.updateAAD(aad(keyId));
            byte[] ct = c.doFinal(secret);
            byte[] out = Arrays.copyOf(nonce, NONCE_BYTES + ct.length);
            System.arraycopy(ct, 0, out, NONCE_BYTES, ct.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused a 32-byte key", e);
        }
    }

    /**
     * The secret of data key {@code keyId} in {@code wrapped}, wrapped under the key {@code kekId};
     * an {@link IllegalStateException} saying what to do when that key is not configured or does
     * not open it (a wrong file is an operator's error, not the event's).
     */
    public byte[] unwrap(String kekId, String keyId, byte[] wrapped) {
        Key k = keys.stream()
                .filter(x -> x.id().equals(kekId))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the data key " + keyId
                        + " is wrapped under key-encryption key " + kekId + ", which is not configured (configured: "
                        + ids() + "); add its file to ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES"));
        if (wrapped.length <= NONCE_BYTES) {
            throw new IllegalStateException("the wrapped data key " + keyId + " is " + wrapped.length + " bytes");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(
                    Cipher.DECRYPT_MODE,
                    new SecretKeySpec(k.key, "AES"),
                    new GCMParameterSpec(128, wrapped, 0, NONCE_BYTES));
            c.updateAAD(aad(keyId));
            return c.doFinal(wrapped, NONCE_BYTES, wrapped.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw new IllegalStateException("the data key " + keyId + " does not unwrap under key-encryption key "
                    + kekId + ": the key store's row was changed or moved from another key ID");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot unwrap the data key " + keyId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "KeyEncryptionKeys" + ids();
    }

    private Key current() {
        if (keys.isEmpty()) {
            throw new IllegalStateException(
                    "no key-encryption key is configured (ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES): "
                            + "this process cannot make or open data keys");
        }
        return keys.get(0);
    }

    private static byte[] read(Path f) {
        if (!Files.isRegularFile(f)) {
            throw new IllegalArgumentException("key-encryption key file " + f + " does not exist");
        }
        try {
            if (Files.getFileAttributeView(f, PosixFileAttributeView.class) != null) {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(f);
                if (perms.contains(PosixFilePermission.GROUP_READ)
                        || perms.contains(PosixFilePermission.OTHERS_READ)
                        || perms.contains(PosixFilePermission.GROUP_WRITE)
                        || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                    throw new IllegalArgumentException(
                            "key-encryption key file " + f + " has mode " + PosixFilePermissions.toString(perms)
                                    + ": make it readable by its owner only (chmod 600)");
                }
            }
            byte[] k = Base64.getDecoder()
                    .decode(Files.readString(f, StandardCharsets.US_ASCII).strip());
            if (k.length != 32) {
                throw new IllegalArgumentException(
                        "key-encryption key file " + f + " holds " + k.length + " bytes, not the base64 of 32");
            }
            return k;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read key-encryption key file " + f + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("key-encryption key file")) {
                throw e;
            }
            throw new IllegalArgumentException("key-encryption key file " + f + " is not base64: " + e.getMessage());
        }
    }

    private static byte[] random() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return k;
    }

    static String idOf(byte[] kek) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update("electoral-log/kek/v1".getBytes(StandardCharsets.US_ASCII));
            d.update((byte) 0);
            return Hex.encode(Arrays.copyOf(d.digest(kek), 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static byte[] aad(String keyId) {
        byte[] domain = WRAP_DOMAIN.getBytes(StandardCharsets.US_ASCII);
        byte[] id = keyId.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[domain.length + 1 + id.length];
        System.arraycopy(domain, 0, out, 0, domain.length);
        System.arraycopy(id, 0, out, domain.length + 1, id.length);
        return out;
    }
}
