package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.BadEventException;

/**
 * A dead letter: the original event (key, value, timestamp, headers) with why it was refused and
 * where it came from in {@code dlq.*} headers (BRIEF section 3, invariant 6).
 *
 * <p>A dead letter never becomes the next poison: when the original with the added headers would
 * not fit {@code maxBytes} (the dead-letter topic's {@code max.message.bytes} less a margin for
 * the batch framing), the value is cut to what fits and {@code dlq.original.length} and
 * {@code dlq.original.sha256} say what it was; original headers that alone take more than a
 * quarter of the budget are left out ({@code dlq.original.headers.dropped}), and so is a key longer
 * than {@link #MAX_KEY_CHARS} characters ({@code dlq.original.key.length}). The dead letter's
 * timestamp is when it was written: the original's (in {@code dlq.original.timestamp}) may lie
 * outside what the dead-letter topic accepts ({@code message.timestamp.after.max.ms}).
 */
@SuppressWarnings("ArrayRecordComponent") // a message to send, never compared as a value
record DeadLetter(String key, byte[] value, long timestamp, Headers headers) {
    /** Longest key kept whole; a board name is at most 64 characters. */
    static final int MAX_KEY_CHARS = 256;
    /** Longest {@code dlq.message} kept. */
    static final int MAX_MESSAGE_CHARS = 2_000;

    /** Where a refused event came from. */
    record Source(String topic, int partition, long offset) {}

    static DeadLetter of(
            String key,
            byte[] value,
            long timestamp,
            Headers original,
            Source source,
            BadEventException.Reason reason,
            String message,
            int maxBytes,
            long nowMillis) {
        RecordHeaders h = new RecordHeaders();
        String msg = message == null ? "" : message;
        if (msg.length() > MAX_MESSAGE_CHARS) {
            msg = msg.substring(0, MAX_MESSAGE_CHARS) + "...";
        }
        h.add("dlq.reason", utf8(reason.name()));
        h.add("dlq.message", utf8(msg));
        h.add("dlq.source.topic", utf8(source.topic()));
        h.add("dlq.source.partition", utf8(String.valueOf(source.partition())));
        h.add("dlq.source.offset", utf8(String.valueOf(source.offset())));
        h.add("dlq.original.timestamp", utf8(String.valueOf(timestamp)));
        String k = key;
        if (k != null && k.length() > MAX_KEY_CHARS) {
            h.add("dlq.original.key.length", utf8(String.valueOf(k.length())));
            k = k.substring(0, MAX_KEY_CHARS);
        }
        int originalHeaders = original == null ? 0 : size(original);
        boolean keepHeaders = originalHeaders <= maxBytes / 4;
        int valueLength = value == null ? 0 : value.length;
        int fixed = size(h) + (k == null ? 0 : utf8(k).length) + (keepHeaders ? originalHeaders : 0);
        byte[] v = value;
        if (fixed + valueLength > maxBytes || !keepHeaders) {
            // the extra headers cost about 150 bytes more; reserve them before cutting
            int room = Math.max(0, maxBytes - fixed - 256);
            if (value != null && valueLength > room) {
                h.add("dlq.original.length", utf8(String.valueOf(valueLength)));
                h.add("dlq.original.sha256", utf8(HexFormat.of().formatHex(Hashes.sha256(value))));
                h.add("dlq.truncated", utf8("true"));
                v = Arrays.copyOf(value, room);
            }
        }
        RecordHeaders all = new RecordHeaders();
        if (original != null) {
            if (keepHeaders) {
                original.forEach(all::add);
            } else {
                int n = 0;
                for (Header ignored : original) {
                    n++;
                }
                h.add("dlq.original.headers.dropped", utf8(String.valueOf(n)));
            }
        }
        h.forEach(all::add);
        return new DeadLetter(k, v, nowMillis, all);
    }

    /** The bytes a record's headers take (keys and values; the varint framing is in the margin). */
    static int size(Headers headers) {
        int n = 0;
        for (Header x : headers) {
            n += utf8(x.key()).length + (x.value() == null ? 0 : x.value().length) + 8;
        }
        return n;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
