package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.electorallog.core.Hex;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.PersonalOpenings.Sealed;
import org.junit.jupiter.api.Test;

/**
 * The committed form's bytes (docs/personal-data.md): commitments and sealed openings pinned by test
 * vectors computed apart from this code (Python's hashlib and the cryptography package's AESGCM), and
 * every way an opening can fail to match.
 */
class PersonalCommitmentTest {
    private static final byte[] SALT = Hex.decode("000102030405060708090a0b0c0d0e0f");
    private static final byte[] SALT_FF = Hex.decode("ffffffffffffffffffffffffffffffff");

    @Test
    void commitmentsMatchTheVectors() {
        assertEquals(
                "605790c28211ee8e801b83872a7c59b3228f0e7fc56200c5832b37965ffe35b7",
                Hex.encode(PersonalCommitment.of("election-2026", "d-1", "user_id", SALT, "user-42")));
        assertEquals(
                "13cf537f6b7b405acaeb5eb6c9d9997559722a499a78f4eb859c1c1257209be9",
                Hex.encode(PersonalCommitment.of("election-2026", "d-1", "body.ip", SALT_FF, "203.0.113.7")));
    }

    @Test
    void aCommitmentOpensWithItsValueAndSaltOnly() {
        byte[] c = PersonalCommitment.of("election-2026", "d-1", "user_id", SALT, "user-42");
        assertTrue(PersonalCommitment.opens(c, "election-2026", "d-1", "user_id", SALT, "user-42"));
        assertFalse(PersonalCommitment.opens(c, "election-2026", "d-1", "user_id", SALT, "user-43"), "another value");
        assertFalse(PersonalCommitment.opens(c, "election-2026", "d-1", "user_id", SALT_FF, "user-42"), "another salt");
        assertFalse(PersonalCommitment.opens(c, "election-2026", "d-1", "username", SALT, "user-42"), "another field");
        assertFalse(
                PersonalCommitment.opens(c, "election-2026", "d-2", "user_id", SALT, "user-42"), "another statement");
        assertFalse(PersonalCommitment.opens(c, "election-2027", "d-1", "user_id", SALT, "user-42"), "another board");
        assertFalse(
                PersonalCommitment.opens(c, "election-2026", "d-1", "user_id", new byte[8], "user-42"), "short salt");
        assertThrows(
                IllegalArgumentException.class, () -> PersonalCommitment.of("b", "d", "user_id", new byte[15], "v"));
    }

    @Test
    void saltsAreFreshAndFull() {
        byte[] a = PersonalCommitment.salt();
        byte[] b = PersonalCommitment.salt();
        assertEquals(16, a.length);
        assertFalse(MessageDigest.isEqual(a, b));
    }

    @Test
    void openingsEncodeInPathOrderAndDecodeBack() {
        List<Opening> openings =
                List.of(new Opening("user_id", SALT, "user-42"), new Opening("body.ip", SALT_FF, "203.0.113.7"));
        byte[] plain = PersonalOpenings.encode(openings);
        assertEquals(
                "0207626f64792e6970ffffffffffffffffffffffffffffffff0b3230332e302e3131332e37"
                        + "07757365725f6964000102030405060708090a0b0c0d0e0f07757365722d3432",
                Hex.encode(plain));
        assertEquals(List.of(openings.get(1), openings.get(0)), PersonalOpenings.decode(plain));
        assertThrows(
                IllegalArgumentException.class,
                () -> PersonalOpenings.encode(List.of(openings.get(0), openings.get(0))),
                "one path twice");
    }

    @Test
    void malformedOpeningsAreRefusedWithTheReason() {
        byte[] plain = PersonalOpenings.encode(List.of(new Opening("user_id", SALT, "user-42")));
        byte[] cut = java.util.Arrays.copyOf(plain, plain.length - 2);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersonalOpenings.decode(cut))
                .getMessage()
                .contains("string of"));
        byte[] longer = java.util.Arrays.copyOf(plain, plain.length + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersonalOpenings.decode(longer))
                .getMessage()
                .contains("after the last"));
        byte[] unordered = PersonalOpenings.encode(List.of(new Opening("a", SALT, "1")));
        byte[] twoOutOfOrder = concat(
                new byte[] {2},
                java.util.Arrays.copyOfRange(PersonalOpenings.encode(List.of(new Opening("b", SALT, "2"))), 1, 21),
                java.util.Arrays.copyOfRange(unordered, 1, unordered.length));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PersonalOpenings.decode(twoOutOfOrder))
                .getMessage()
                .contains("path order"));
    }

    @Test
    void sealedOpeningsMatchTheVectorAndOpenOnlyForTheirStatementAndKey() throws Exception {
        byte[] key = Hex.decode("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
        byte[] nonce = Hex.decode("000102030405060708090a0b");
        byte[] leaf = MessageDigest.getInstance("SHA-256").digest("\0leaf".getBytes(StandardCharsets.US_ASCII));
        List<Opening> openings =
                List.of(new Opening("body.ip", SALT_FF, "203.0.113.7"), new Opening("user_id", SALT, "user-42"));
        Sealed sealed = PersonalOpenings.sealWithNonce("election-2026/2026-11-30", key, nonce, leaf, openings);
        assertEquals(
                "4505b474a19cec72fdbe68744e1687927c2978cb0f84a083c76cd7b52e47309c30219dd298c667eb11d62084ec87293a"
                        + "ed5d658b5ddeaad0349b271717e4809d954eeb4ee18405baff904179a980db414317110145",
                Hex.encode(sealed.ciphertext()));
        assertEquals(openings, PersonalOpenings.open(sealed, key, leaf));

        byte[] otherLeaf = leaf.clone();
        otherLeaf[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> PersonalOpenings.open(sealed, key, otherLeaf));
        byte[] otherKey = key.clone();
        otherKey[31] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> PersonalOpenings.open(sealed, otherKey, leaf));
        byte[] flipped = sealed.ciphertext();
        flipped[3] ^= 1;
        assertThrows(
                IllegalArgumentException.class,
                () -> PersonalOpenings.open(new Sealed(sealed.keyId(), nonce, flipped), key, leaf));

        Sealed fresh = PersonalOpenings.seal("k", PersonalOpenings.newKey(), leaf, openings);
        assertFalse(MessageDigest.isEqual(
                fresh.nonce(), PersonalOpenings.seal("k", key, leaf, openings).nonce()));
        assertArrayEquals(openings.get(0).salt(), SALT_FF);
    }

    @Test
    void aDataKeyIsNamedByBoardAndUtcDay() {
        assertEquals("election-2026/2026-11-30", DataKeys.id("election-2026", java.time.LocalDate.of(2026, 11, 30)));
        // 2026-11-30T23:59:59.999Z and the next millisecond fall on two days
        assertEquals(java.time.LocalDate.of(2026, 11, 30), DataKeys.dayOf(1_796_083_199_999L));
        assertEquals(java.time.LocalDate.of(2026, 12, 1), DataKeys.dayOf(1_796_083_200_000L));
        assertThrows(IllegalArgumentException.class, () -> new DataKeys.DataKey("k", new byte[16], null));
        assertThrows(IllegalArgumentException.class, () -> new DataKeys.DataKey("k", null, null));
        assertFalse(
                new DataKeys.DataKey("k", new byte[32], new byte[32]).toString().contains("0, 0"),
                "never the key's bytes");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
