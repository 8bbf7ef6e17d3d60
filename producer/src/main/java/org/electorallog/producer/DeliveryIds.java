package org.electorallog.producer;

import java.security.SecureRandom;
import java.util.UUID;

/** Delivery IDs: time-ordered UUIDv7 (RFC 9562 section 5.7) by default. */
public final class DeliveryIds {
    private static final SecureRandom RANDOM = new SecureRandom();

    private DeliveryIds() {}

    /** A new UUIDv7: 48-bit Unix milliseconds, version 7, 74 random bits. */
    public static String uuidV7() {
        long ms = System.currentTimeMillis();
        long randA = RANDOM.nextInt(1 << 12);
        long randB = RANDOM.nextLong();
        long msb = (ms << 16) | (0x7L << 12) | randA;
        long lsb = (randB & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }
}
