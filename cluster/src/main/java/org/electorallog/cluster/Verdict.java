package org.electorallog.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.electorallog.core.Hashes;
import org.electorallog.schemas.Topics;
import org.electorallog.store.BoardState;
import org.electorallog.store.Projection;

/**
 * What the rehearsal found at its end (issue 43 item 3): every acknowledged statement on its board
 * exactly once, nothing dead-lettered, every checkpoint served during the run a prefix of the final
 * tree (the root of the final projection's first {@code size} leaves, computed here from its leaf
 * hashes, RFC 9162 section 2.1.1), and the projection equal to a fresh replay of the topic
 * ({@code electoral-log rebuild}).
 */
final class Verdict {
    private Verdict() {}

    /** Per board: acknowledged, projected, lost, doubled, and projected though never acknowledged. */
    static Map<String, Object> statements(Cluster c, Workload w, Duration wait) {
        Map<String, Object> out = new LinkedHashMap<>();
        long lost = 0;
        long doubled = 0;
        long deadline = System.nanoTime() + wait.toNanos();
        try (Projection db = projection(c)) {
            for (BoardTraffic b : w.boards) {
                List<String> rows = deliveryIds(db, b.name);
                while (!new HashSet<>(rows).containsAll(b.acknowledged) && System.nanoTime() < deadline) {
                    JavaProcess.pause(500); // the projection catching up is the condition
                    rows = deliveryIds(db, b.name);
                }
                Set<String> present = new HashSet<>(rows);
                Set<String> missing = new HashSet<>(b.acknowledged);
                missing.removeAll(present);
                Set<String> unacknowledged = new HashSet<>(present);
                unacknowledged.removeAll(b.acknowledged);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("published", b.publishedCount());
                m.put("acknowledged", b.acknowledged.size());
                m.put("failed_to_publish", b.failed.get());
                m.put("projected", rows.size());
                m.put("lost", missing.size());
                m.put("doubled", rows.size() - present.size());
                m.put("projected_unacknowledged", unacknowledged.size());
                lost += missing.size();
                doubled += rows.size() - present.size();
                out.put(b.name, m);
            }
        }
        out.put("lost", lost);
        out.put("doubled", doubled);
        return out;
    }

    /** The board's delivery IDs in record order; none while the board does not exist. */
    private static List<String> deliveryIds(Projection db, String board) {
        return db.read(r -> {
            Optional<BoardState> s = r.state(board);
            return s.isEmpty()
                    ? List.<String>of()
                    : r.deliveryIds(s.get().board().id());
        });
    }

    /** The final projection: the current primary's. */
    private static Projection projection(Cluster c) {
        return Projection.open(c.databases().current().address(), 1, "verdict");
    }

    /**
     * Per board: its final size and the largest size the witness cosigned, once the witness has
     * cosigned every board's final checkpoint or {@code wait} has passed (the witnessing loop sends
     * each new checkpoint after the batch that made it).
     */
    static Map<String, Object> witnessed(Cluster c, Workload w, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        try (Projection db = projection(c)) {
            while (true) {
                Map<String, Object> out = new LinkedHashMap<>();
                boolean all = true;
                for (BoardTraffic b : w.boards) {
                    Optional<BoardState> s = db.statement(r -> r.state(b.name));
                    long size = s.map(BoardState::size).orElse(0L);
                    long cosigned = size == 0
                            ? 0
                            : db.statement(
                                    r -> r.largestCosignedSize(s.get().board().id()));
                    out.put(b.name, Map.of("size", size, "largest_cosigned", cosigned));
                    all &= size > 0 && cosigned == size;
                }
                if (all || System.nanoTime() > deadline) {
                    return out;
                }
                JavaProcess.pause(200); // the witness's cosignatures arriving are the condition
            }
        }
    }

    /** The committed records on the dead-letter topic (transaction markers are not records). */
    static long deadLetters(Cluster c) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, c.kafka().bootstrap());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long count = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (consumer.position(tp) < end) {
                if (System.nanoTime() > deadline) {
                    // a partial count could hide a dead letter: no count rather than a wrong one
                    throw new IllegalStateException("the dead-letter topic was not read to its end offset " + end
                            + " within a minute (at " + consumer.position(tp) + ", " + count + " records)");
                }
                count += consumer.poll(Duration.ofMillis(500)).count();
            }
            return count;
        }
    }

    /**
     * Checks every checkpoint served during the run against the final projection: its root must be
     * the root of the board's first {@code size} leaves. Returns one sentence per mismatch.
     */
    static List<String> servedCheckpoints(Cluster c, Workload w) {
        List<String> problems = new ArrayList<>();
        try (Projection db = projection(c)) {
            for (BoardTraffic b : w.boards) {
                problems.addAll(b.forks);
                Map<Long, String> roots = rootsAtServedSizes(db, b.name, b.roots.keySet());
                b.roots.forEach((size, root) -> {
                    String actual =
                            size == 0 ? Base64.getEncoder().encodeToString(Hashes.emptyRoot()) : roots.get(size);
                    if (!root.equals(actual)) {
                        problems.add("board " + b.name + " size " + size + ": served root " + root
                                + ", final tree's root at that size " + actual);
                    }
                });
            }
        }
        return problems;
    }

    /** RFC 9162 2.1.1 roots of the board's first n leaves, for each n in {@code sizes}, in one pass. */
    private static Map<Long, String> rootsAtServedSizes(Projection db, String board, Set<Long> sizes) {
        Map<Long, String> out = new LinkedHashMap<>();
        List<byte[]> stack = new ArrayList<>(); // compact range: perfect subtrees, largest first
        List<Long> heights = new ArrayList<>();
        long[] n = {0}; // leaves read so far
        // one snapshot, so the statements come through a cursor, not the whole board in memory
        db.read(r -> {
            Optional<BoardState> state = r.state(board);
            if (state.isEmpty()) {
                return null;
            }
            r.statements(state.get().board().id(), 0, Long.MAX_VALUE, (id, statement) -> {
                byte[] h = Hashes.leafHash(statement);
                long height = 0;
                while (!heights.isEmpty() && heights.get(heights.size() - 1) == height) {
                    h = Hashes.nodeHash(stack.remove(stack.size() - 1), h);
                    heights.remove(heights.size() - 1);
                    height++;
                }
                stack.add(h);
                heights.add(height);
                n[0]++;
                if (sizes.contains(n[0])) {
                    byte[] root = stack.get(stack.size() - 1);
                    for (int i = stack.size() - 2; i >= 0; i--) {
                        root = Hashes.nodeHash(stack.get(i), root);
                    }
                    out.put(n[0], Base64.getEncoder().encodeToString(root));
                }
                return true;
            });
            return null;
        });
        return out;
    }
}
