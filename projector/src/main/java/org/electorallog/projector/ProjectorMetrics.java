package org.electorallog.projector;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.schemas.BadEventException;

/** Counters of the projector, shared by its tasks. */
public final class ProjectorMetrics {
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong fenced = new AtomicLong();
    private final AtomicLong lastBatchMicros = new AtomicLong();
    private final Map<BadEventException.Reason, AtomicLong> deadLetters = new EnumMap<>(BadEventException.Reason.class);

    public ProjectorMetrics() {
        for (BadEventException.Reason r : BadEventException.Reason.values()) {
            deadLetters.put(r, new AtomicLong());
        }
    }

    void batch(int written, int dropped, long nanos) {
        records.addAndGet(written);
        duplicates.addAndGet(dropped);
        batches.incrementAndGet();
        lastBatchMicros.set(nanos / 1000);
    }

    void deadLetter(BadEventException.Reason reason) {
        deadLetters.get(reason).incrementAndGet();
    }

    void fenced() {
        fenced.incrementAndGet();
    }

    public long recordsWritten() {
        return records.get();
    }

    public long duplicatesDropped() {
        return duplicates.get();
    }

    public long deadLetters() {
        return deadLetters.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("records_written", records.get());
        m.put("batches", batches.get());
        m.put("duplicates_dropped", duplicates.get());
        m.put("fenced_batches", fenced.get());
        m.put("last_batch_micros", lastBatchMicros.get());
        deadLetters.forEach((r, v) -> m.put("dead_letters_" + r.name().toLowerCase(), v.get()));
        return m;
    }
}
