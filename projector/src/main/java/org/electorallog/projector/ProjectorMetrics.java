package org.electorallog.projector;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.schemas.BadEventException;

/**
 * Counters and histograms of the projector, shared by its tasks. The histograms (batch duration,
 * publish-to-projected lag) live in a composite registry from the start, so that they count before
 * and after {@link #bindTo} adds the Prometheus registry; their buckets are fixed (SLO boundaries) so
 * that Prometheus can compute percentiles ({@code histogram_quantile}) over any set of instances.
 */
public final class ProjectorMetrics {
    /** Bucket boundaries of the batch duration: 1 ms to 10 s. */
    static final Duration[] BATCH_BUCKETS = buckets(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000);
    /** Bucket boundaries of the lag from publishing (Kafka timestamp) to the commit in PostgreSQL: 10 ms to 5 min. */
    static final Duration[] LAG_BUCKETS =
            buckets(10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, 300000);

    private final CompositeMeterRegistry histograms = new CompositeMeterRegistry();
    private final Timer batchTimer = Timer.builder("electoral_log_projector_batch")
            .description("duration of a batch transaction (records, tiles, counters, checkpoints, offset)")
            .serviceLevelObjectives(BATCH_BUCKETS)
            .register(histograms);
    private final Timer lagTimer = Timer.builder("electoral_log_projector_publish_to_projected")
            .description("from an event's Kafka timestamp to the commit of its record in PostgreSQL")
            .serviceLevelObjectives(LAG_BUCKETS)
            .register(histograms);
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong fenced = new AtomicLong();
    private final AtomicLong rewritten = new AtomicLong();
    private final AtomicLong rewrittenForRepeats = new AtomicLong();
    private final AtomicLong lastBatchMicros = new AtomicLong();
    private final AtomicLong batchMicrosTotal = new AtomicLong();
    private final AtomicLong commitMicrosTotal = new AtomicLong();
    private final AtomicLong lastBatchSize = new AtomicLong();
    private final Map<BadEventException.Reason, AtomicLong> deadLetters = new EnumMap<>(BadEventException.Reason.class);
    private final Map<Integer, Long> projectedOffsets = new ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();

    public ProjectorMetrics() {
        for (BadEventException.Reason r : BadEventException.Reason.values()) {
            deadLetters.put(r, new AtomicLong());
        }
    }

    private static Duration[] buckets(long... millis) {
        return Arrays.stream(millis).mapToObj(Duration::ofMillis).toArray(Duration[]::new);
    }

    /** Each committed event's time from its Kafka timestamp to now (the commit). */
    void committed(List<PendingEvent> events, long nowMillis) {
        for (PendingEvent e : events) {
            lagTimer.record(Math.max(0, nowMillis - e.kafkaTimestamp()), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A committed batch: its events written and dropped as repeats, the time of its whole transaction
     * and of its commit alone (PostgreSQL's WAL flush, which the batch writer waits for).
     */
    void batch(int written, int dropped, long nanos, long commitNanos) {
        batchTimer.record(nanos, TimeUnit.NANOSECONDS);
        lastBatchSize.set(written);
        records.addAndGet(written);
        duplicates.addAndGet(dropped);
        batches.incrementAndGet();
        lastBatchMicros.set(nanos / 1000);
        batchMicrosTotal.addAndGet(nanos / 1000);
        commitMicrosTotal.addAndGet(commitNanos / 1000);
    }

    void deadLetter(BadEventException.Reason reason) {
        deadLetters.get(reason).incrementAndGet();
    }

    void projected(int partition, long nextOffset) {
        projectedOffsets.put(partition, nextOffset);
    }

    /** The next offset this instance has stored per partition it has projected. */
    public Map<Integer, Long> projectedOffsets() {
        return new TreeMap<>(projectedOffsets);
    }

    void fenced() {
        fenced.incrementAndGet();
    }

    /** A batch written while its signatures were verified was rolled back for a refused one (decision 77). */
    void rewritten() {
        rewritten.incrementAndGet();
    }

    /** A batch written without a delivery-ID lookup met a stored ID and is written again with it (decision 83). */
    void rewrittenForRepeats() {
        rewrittenForRepeats.incrementAndGet();
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

    private static void counter(MeterRegistry registry, String name, AtomicLong value, String description) {
        FunctionCounter.builder(name, value, AtomicLong::get)
                .description(description)
                .register(registry);
    }

    /** Registers these counters with a Micrometer registry (Prometheus names: electoral_log_projector_*). */
    public void bindTo(MeterRegistry registry) {
        histograms.add(registry);
        counter(registry, "electoral_log_projector_records_written", records, "records written to PostgreSQL");
        counter(registry, "electoral_log_projector_batches", batches, "batches committed");
        counter(
                registry,
                "electoral_log_projector_duplicates_dropped",
                duplicates,
                "statements dropped because their delivery ID was already on the board");
        counter(
                registry,
                "electoral_log_projector_fenced_batches",
                fenced,
                "batches refused by the epoch check (zombie writers)");
        counter(
                registry,
                "electoral_log_projector_batches_rewritten",
                rewritten,
                "batches written while their signatures were verified, rolled back because one was refused, "
                        + "and written again without it");
        counter(
                registry,
                "electoral_log_projector_batches_rewritten_for_repeats",
                rewrittenForRepeats,
                "batches written without looking their delivery IDs up, rolled back because one was already "
                        + "stored, and written again with the lookup");
        deadLetters.forEach(
                (reason, n) -> FunctionCounter.builder("electoral_log_projector_dead_letters", n, AtomicLong::get)
                        .tag("reason", reason.name())
                        .description("events sent to the dead-letter topic")
                        .register(registry));
        Gauge.builder("electoral_log_projector_last_batch_seconds", lastBatchMicros, v -> v.get() / 1e6)
                .description("duration of the last batch")
                .register(registry);
        Gauge.builder("electoral_log_projector_last_batch_records", lastBatchSize, AtomicLong::get)
                .description("records in the last batch")
                .register(registry);
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("records_written", records.get());
        m.put("batches", batches.get());
        m.put("duplicates_dropped", duplicates.get());
        m.put("fenced_batches", fenced.get());
        m.put("batches_rewritten", rewritten.get());
        m.put("batches_rewritten_for_repeats", rewrittenForRepeats.get());
        m.put("last_batch_micros", lastBatchMicros.get());
        m.put("last_batch_records", lastBatchSize.get());
        m.put("batch_micros_total", batchMicrosTotal.get());
        m.put("commit_micros_total", commitMicrosTotal.get());
        double seconds = Math.max(1e-9, (System.nanoTime() - startedNanos) / 1e9);
        m.put("records_per_second_since_start", Math.round(records.get() / seconds));
        deadLetters.forEach((r, v) -> m.put("dead_letters_" + r.name().toLowerCase(Locale.ROOT), v.get()));
        return m;
    }
}
