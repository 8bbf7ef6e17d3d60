package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.BadEventException;
import org.junit.jupiter.api.Test;

/** A dead letter keeps the original when it fits and never outgrows the dead-letter topic. */
class DeadLetterTest {
    private static final DeadLetter.Source SOURCE = new DeadLetter.Source("events", 3, 42);

    private static String header(DeadLetter d, String name) {
        var h = d.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static int size(DeadLetter d) {
        return (d.key() == null ? 0 : d.key().getBytes(StandardCharsets.UTF_8).length)
                + (d.value() == null ? 0 : d.value().length)
                + DeadLetter.size(d.headers());
    }

    @Test
    void aSmallEventIsKeptWholeWithItsReasonSourceAndHeaders() {
        RecordHeaders original = new RecordHeaders();
        original.add("trace", new byte[] {1, 2});
        DeadLetter d = DeadLetter.of(
                "board",
                new byte[] {9, 8, 7},
                123L,
                original,
                SOURCE,
                BadEventException.Reason.INVALID,
                "user_id: too long",
                10_000,
                999L);
        assertArrayEquals(new byte[] {9, 8, 7}, d.value());
        assertEquals("board", d.key());
        assertEquals(999L, d.timestamp(), "written at dead-lettering time");
        assertEquals("123", header(d, "dlq.original.timestamp"));
        assertEquals("INVALID", header(d, "dlq.reason"));
        assertEquals("user_id: too long", header(d, "dlq.message"));
        assertEquals("events", header(d, "dlq.source.topic"));
        assertEquals("3", header(d, "dlq.source.partition"));
        assertEquals("42", header(d, "dlq.source.offset"));
        assertArrayEquals(new byte[] {1, 2}, d.headers().lastHeader("trace").value());
        assertNull(header(d, "dlq.truncated"));
    }

    @Test
    void anEventTooLargeForTheTopicIsCutWithItsDigestAndLength() {
        byte[] value = new byte[50_000];
        new java.util.Random(1).nextBytes(value);
        RecordHeaders original = new RecordHeaders();
        original.add("big", new byte[5_000]);
        for (int budget : new int[] {4_096, 10_000, 20_001, 50_000}) {
            DeadLetter d = DeadLetter.of(
                    "board",
                    value,
                    1L,
                    original,
                    SOURCE,
                    BadEventException.Reason.NO_SCHEMA,
                    "x".repeat(10_000),
                    budget,
                    2L);
            assertTrue(size(d) <= budget, "fits " + budget + ": " + size(d));
            assertEquals("true", header(d, "dlq.truncated"));
            assertEquals("50000", header(d, "dlq.original.length"));
            assertEquals(HexFormat.of().formatHex(Hashes.sha256(value)), header(d, "dlq.original.sha256"));
            assertArrayEquals(java.util.Arrays.copyOf(value, d.value().length), d.value(), "a prefix of the original");
            assertTrue(header(d, "dlq.message").length() <= DeadLetter.MAX_MESSAGE_CHARS + 3);
            if (budget / 4 < 5_000 + 20) {
                assertEquals("1", header(d, "dlq.original.headers.dropped"));
                assertNull(d.headers().lastHeader("big"));
            }
        }
    }

    @Test
    void aHugeKeyIsCutAndNamed() {
        String key = "k".repeat(100_000);
        DeadLetter d =
                DeadLetter.of(key, new byte[10], 1L, null, SOURCE, BadEventException.Reason.INVALID, "m", 20_000, 2L);
        assertEquals(DeadLetter.MAX_KEY_CHARS, d.key().length());
        assertEquals("100000", header(d, "dlq.original.key.length"));
        assertTrue(size(d) <= 20_000);
    }
}
