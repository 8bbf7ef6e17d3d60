package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Statement signatures: a valid one verifies; a tampered message, signature or key does not, and never throws. */
class SigningKeyTest {
    @Test
    void verificationIsFalseForEveryWrongInputNeverAnException() {
        SigningKey key = SigningKey.generate();
        byte[] message = "statement".getBytes(StandardCharsets.UTF_8);
        byte[] sig = key.sign(message);
        assertTrue(SigningKey.verify(key.publicKey(), message, sig));
        assertFalse(SigningKey.verify(key.publicKey(), "other".getBytes(StandardCharsets.UTF_8), sig));
        byte[] bent = sig.clone();
        bent[5] ^= 1;
        assertFalse(SigningKey.verify(key.publicKey(), message, bent));
        assertFalse(SigningKey.verify(SigningKey.generate().publicKey(), message, sig));
        byte[] notAPoint = new byte[32];
        Arrays.fill(notAPoint, (byte) 0xab); // 32 bytes that decode to no point of Ed25519
        assertFalse(SigningKey.verify(notAPoint, message, sig));
        assertFalse(SigningKey.verify(new byte[31], message, sig));
    }

    @Test
    void aKeyDecodedOnceVerifiesAsEveryCallDoesAndTheRfc8032VectorVerifies() {
        // RFC 8032 section 7.1, TEST 1: an empty message
        java.util.HexFormat hex = java.util.HexFormat.of();
        SigningKey.PublicKey vector = SigningKey.PublicKey.decode(
                hex.parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
        byte[] vectorSig =
                hex.parseHex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bac"
                        + "c61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
        assertTrue(vector.verify(new byte[0], vectorSig));
        assertFalse(vector.verify(new byte[1], vectorSig));
        assertTrue(Arrays.equals(
                hex.parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"),
                SigningKey.fromSeed(hex.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
                        .publicKey()));

        SigningKey key = SigningKey.generate();
        SigningKey.PublicKey decoded = SigningKey.PublicKey.decode(key.publicKey());
        for (int i = 0; i < 20; i++) {
            byte[] message = ("statement " + i).getBytes(StandardCharsets.UTF_8);
            byte[] sig = key.sign(message);
            assertTrue(decoded.verify(message, sig));
            byte[] bent = sig.clone();
            bent[i] ^= 1;
            assertFalse(decoded.verify(message, bent));
            assertFalse(SigningKey.verify(key.publicKey(), message, bent));
            assertFalse(decoded.verify(message, Arrays.copyOf(sig, 63)));
            assertFalse(decoded.verify(null, sig));
            assertFalse(decoded.verify(message, null));
        }
        byte[] notAPoint = new byte[32];
        Arrays.fill(notAPoint, (byte) 0xab);
        byte[] message = "statement".getBytes(StandardCharsets.UTF_8);
        assertFalse(SigningKey.PublicKey.decode(notAPoint).verify(message, key.sign(message)));
        assertFalse(SigningKey.PublicKey.decode(null).verify(message, key.sign(message)));
        assertFalse(SigningKey.PublicKey.decode(new byte[33]).verify(message, key.sign(message)));
    }
}
