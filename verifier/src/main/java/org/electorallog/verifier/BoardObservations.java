package org.electorallog.verifier;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code verify-board --report} shows besides the verdict (issue 69 item 4), gathered while
 * the board is verified and only from what was verified: the records per hour of statement time
 * (UTC) and kind, read from the entries whose leaf hashes rebuilt the tree; and the board's
 * checkpoints over time, each one's log signature verified, its root met by the rebuilt tree (as an
 * older checkpoint) and each witness's cosignature verified, with the time the witness gave.
 */
public final class BoardObservations {
    /** Milliseconds in an hour. */
    private static final long HOUR = 3_600_000L;

    /** How many checkpoints of the board's history a report reads at most, evenly over its sizes. */
    public static final int HISTORY_SAMPLES = 240;

    /** A witness's verified cosignature: its name and the time it states (seconds since the epoch). */
    public record Cosigned(String witness, long time) {}

    /** A checkpoint of the history: its size and the witnesses whose cosignature verified. */
    public record HistoricCheckpoint(long size, List<Cosigned> cosignatures) {}

    private final TreeMap<Long, Map<String, Long>> perHour = new TreeMap<>();
    private final TreeMap<Long, HistoricCheckpoint> history = new TreeMap<>();
    private String origin;

    /** Counts one entry: its statement time (milliseconds since the epoch) and kind. */
    void entry(long statementMillis, String kind) {
        perHour.computeIfAbsent(Math.floorDiv(statementMillis, HOUR) * HOUR, h -> new TreeMap<>())
                .merge(kind, 1L, Long::sum);
    }

    void checkpoint(HistoricCheckpoint c) {
        history.put(c.size(), c);
    }

    void origin(String o) {
        this.origin = o;
    }

    /** Records by hour (epoch milliseconds, UTC) and kind, from the entries read; empty when none could be. */
    public Map<Long, Map<String, Long>> perHour() {
        return Collections.unmodifiableMap(perHour);
    }

    /** The checkpoints read, by size, the latest among them. */
    public List<HistoricCheckpoint> history() {
        return List.copyOf(history.values());
    }

    /** The checkpoints' origin (the board's name in the log), or null before the checkpoint was read. */
    public String origin() {
        return origin;
    }

    /** Entries counted in {@link #perHour}. */
    public long entriesCounted() {
        long n = 0;
        for (Map<String, Long> h : perHour.values()) {
            for (long v : h.values()) {
                n += v;
            }
        }
        return n;
    }

    /** The sizes a report asks the history for: {@link #HISTORY_SAMPLES} at most, evenly up to {@code size}. */
    static List<Long> sampleSizes(long size) {
        List<Long> out = new ArrayList<>();
        long samples = Math.min(HISTORY_SAMPLES, size);
        for (long i = 0; i < samples; i++) {
            out.add(1 + i * (size - 1) / Math.max(1, samples - 1));
        }
        return out;
    }
}
