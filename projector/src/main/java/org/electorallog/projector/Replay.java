package org.electorallog.projector;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.electorallog.store.Projection;

/**
 * A projection made again from the topic (BRIEF invariant 2): a projector with the given settings
 * (a fresh consumer group, an empty database) runs until PostgreSQL's stored offset of every
 * partition reaches the end offsets taken at the start. Used by {@code electoral-log rebuild} and
 * by {@code perf rebuild}, which measures it.
 */
public final class Replay {
    private Replay() {}

    /** What a replay did. */
    public record Result(long events, double seconds) {
        public double eventsPerSecond() {
            return events / Math.max(seconds, 1e-9);
        }
    }

    /** The end offset of every partition of {@code topic}. */
    public static Map<Integer, Long> endOffsets(Properties client, String topic) {
        Properties p = new Properties();
        p.putAll(client);
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            var infos = c.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalArgumentException("no topic '" + topic + "'");
            }
            List<TopicPartition> tps = new ArrayList<>();
            infos.forEach(pi -> tps.add(new TopicPartition(topic, pi.partition())));
            Map<Integer, Long> out = new TreeMap<>();
            c.endOffsets(tps, Duration.ofSeconds(30)).forEach((tp, off) -> out.put(tp.partition(), off));
            return out;
        }
    }

    /**
     * Projects {@code settings.topic()} up to {@code end} into {@code settings.login()}, calling
     * {@code progress} with a line (bar, rate, ETA) about twice a second. Throws when the projector
     * stops or the time runs out.
     */
    public static Result run(
            ProjectorSettings settings, Map<Integer, Long> end, Duration timeout, Consumer<String> progress)
            throws InterruptedException {
        long total = end.values().stream().mapToLong(Long::longValue).sum();
        long start = System.nanoTime();
        try (Projector p = Projector.start(settings);
                Projection target = Projection.open(settings.login(), 1, "replay-progress")) {
            long deadline = start + timeout.toNanos();
            Eta eta = new Eta(total);
            while (true) {
                Map<Integer, Long> stored = target.nextOffsets(settings.topic());
                long done = 0;
                boolean complete = true;
                for (Map.Entry<Integer, Long> e : end.entrySet()) {
                    long s = Math.min(stored.getOrDefault(e.getKey(), 0L), e.getValue());
                    done += s;
                    complete &= s >= e.getValue();
                }
                progress.accept(eta.line(done, System.nanoTime()));
                if (complete) {
                    return new Result(total, (System.nanoTime() - start) / 1e9);
                }
                if (!Boolean.TRUE.equals(p.health().getOrDefault("healthy", Boolean.TRUE))) {
                    throw new IllegalStateException("the replay's projector stopped: " + p.health());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replay did not finish within " + timeout.toSeconds() + " s");
                }
                Thread.sleep(500); // progress refresh interval; the stored offsets are the condition
            }
        }
    }

    /** A progress line with the rate over the last half minute and the time left at that rate. */
    static final class Eta {
        private final long total;
        private final ArrayDeque<long[]> window = new ArrayDeque<>();

        Eta(long total) {
            this.total = total;
        }

        String line(long done, long nanos) {
            window.addLast(new long[] {nanos, done});
            while (window.size() > 2 && nanos - window.peekFirst()[0] > 30_000_000_000L) {
                window.removeFirst();
            }
            long[] first = window.peekFirst();
            double secs = (nanos - first[0]) / 1e9;
            double rate = secs <= 0 ? 0 : (done - first[1]) / secs;
            int width = 30;
            int filled = total == 0 ? width : (int) Math.min(width, done * width / total);
            String left = done >= total ? "0s" : rate <= 0 ? "--" : duration((long) ((total - done) / rate));
            return String.format(
                    "[%s%s] %,d / %,d events, %,.0f/s, ETA %s   ",
                    "#".repeat(filled), ".".repeat(width - filled), done, total, rate, left);
        }

        static String duration(long seconds) {
            return seconds >= 3600
                    ? String.format("%dh%02dm", seconds / 3600, seconds % 3600 / 60)
                    : seconds >= 60 ? String.format("%dm%02ds", seconds / 60, seconds % 60) : seconds + "s";
        }
    }
}
