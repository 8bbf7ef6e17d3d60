package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed form's keys since issue 66 (decision 128): content keys wrapped to a day's X25519
 * public key with HPKE (RFC 9180), and data keys wrapped at rest under a key-encryption key.
 */
class KeyCustodyCryptoTest {
    private static final byte[] LEAF = Hashes.leafHash("a statement".getBytes(StandardCharsets.UTF_8));
    private static final List<Opening> OPENINGS = List.of(new Opening("user_id", new byte[16], "voter-1"));

    @Test
    void aContentKeyOpensOnlyWithItsDaysPrivateKeyAndKeyId() {
        ContentKeys.KeyPair day = ContentKeys.newKeyPair();
        assertArrayEquals(day.publicKey(), ContentKeys.publicKeyOf(day.privateKey()));
        byte[] ck = ContentKeys.newContentKey();
        byte[] wrapped = ContentKeys.wrap("b/2026-12-06", day.publicKey(), ck);
        assertEquals(ContentKeys.WRAPPED_BYTES, wrapped.length);
        assertArrayEquals(ck, ContentKeys.unwrap("b/2026-12-06", day.privateKey(), wrapped));

        // another day's private key, the same bytes moved to another key ID, or one byte changed: refused
        ContentKeys.KeyPair other = ContentKeys.newKeyPair();
        assertThrows(
                IllegalArgumentException.class, () -> ContentKeys.unwrap("b/2026-12-06", other.privateKey(), wrapped));
        assertThrows(
                IllegalArgumentException.class, () -> ContentKeys.unwrap("b/2026-12-07", day.privateKey(), wrapped));
        byte[] flipped = wrapped.clone();
        flipped[40] ^= 1;
        assertThrows(
                IllegalArgumentException.class, () -> ContentKeys.unwrap("b/2026-12-06", day.privateKey(), flipped));
        assertThrows(
                IllegalArgumentException.class,
                () -> ContentKeys.unwrap("b/2026-12-06", day.privateKey(), new byte[10]));

        // the openings sealed under the content key open with it, carrying the wrapped key
        PersonalOpenings.Sealed sealed = PersonalOpenings.seal("b/2026-12-06", wrapped, ck, LEAF, OPENINGS);
        assertArrayEquals(wrapped, sealed.wrappedKey());
        assertEquals(
                OPENINGS,
                PersonalOpenings.open(
                        sealed, ContentKeys.unwrap("b/2026-12-06", day.privateKey(), sealed.wrappedKey()), LEAF));
        assertFalse(day.toString().contains(Hex.encode(day.privateKey())), "never the private half");
    }

    @Test
    void aWrappedSecretOpensOnlyUnderItsKeyEncryptionKeyAndKeyId() {
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        byte[] secret = ContentKeys.newKeyPair().privateKey();
        byte[] wrapped = kek.wrap("b/2026-12-06", secret);
        assertArrayEquals(secret, kek.unwrap(kek.currentId(), "b/2026-12-06", wrapped));
        for (int i = 0; i + 32 <= wrapped.length; i++) {
            assertFalse(
                    java.util.Arrays.equals(secret, java.util.Arrays.copyOfRange(wrapped, i, i + 32)),
                    "not in the clear");
        }
        // moved to another key ID, or asked of another key: refused, saying what to do
        IllegalStateException moved =
                assertThrows(IllegalStateException.class, () -> kek.unwrap(kek.currentId(), "c/2026-12-06", wrapped));
        assertTrue(moved.getMessage().contains("does not unwrap"), moved.getMessage());
        KeyEncryptionKeys other = KeyEncryptionKeys.generate();
        IllegalStateException missing =
                assertThrows(IllegalStateException.class, () -> other.unwrap(kek.currentId(), "b/2026-12-06", wrapped));
        assertTrue(missing.getMessage().contains("ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES"), missing.getMessage());
        IllegalStateException none =
                assertThrows(IllegalStateException.class, () -> KeyEncryptionKeys.NONE.wrap("b/2026-12-06", secret));
        assertTrue(none.getMessage().contains("no key-encryption key"), none.getMessage());
    }

    @Test
    void aKeyFileIsWrittenForItsOwnerOnlyAndAnOpenOneIsRefused(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("kek");
        KeyEncryptionKeys made = KeyEncryptionKeys.create(f);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        KeyEncryptionKeys read = KeyEncryptionKeys.load(List.of(f));
        assertEquals(made.currentId(), read.currentId());
        byte[] wrapped = made.wrap("b/2026-12-06", new byte[32]);
        assertArrayEquals(new byte[32], read.unwrap(read.currentId(), "b/2026-12-06", wrapped));
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> KeyEncryptionKeys.create(f));
        assertEquals(made.currentId(), KeyEncryptionKeys.loadOrCreate(f).currentId());

        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        IllegalArgumentException open =
                assertThrows(IllegalArgumentException.class, () -> KeyEncryptionKeys.load(List.of(f)));
        assertTrue(open.getMessage().contains("chmod 600"), open.getMessage());
        Path bad = dir.resolve("bad");
        Files.writeString(bad, "not base64!\n");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rw-------"));
        assertThrows(IllegalArgumentException.class, () -> KeyEncryptionKeys.load(List.of(bad)));
        assertThrows(IllegalArgumentException.class, () -> KeyEncryptionKeys.load(List.of(dir.resolve("absent"))));

        // a rotation: the new key first wraps, the old one still unwraps what it wrapped
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        Path next = dir.resolve("kek-next");
        KeyEncryptionKeys.create(next);
        KeyEncryptionKeys both = KeyEncryptionKeys.load(List.of(next, f));
        assertEquals(2, both.ids().size());
        assertArrayEquals(new byte[32], both.unwrap(made.currentId(), "b/2026-12-06", wrapped));
        assertFalse(both.currentId().equals(made.currentId()));
    }
}
