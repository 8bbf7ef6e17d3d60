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
}
