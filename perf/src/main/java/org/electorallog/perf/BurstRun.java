package org.electorallog.perf;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.Setting;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.Projector;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.store.BoardRow;
import org.electorallog.store.RecordSamples;

/**
 * {@code perf burst} (shared/reference/001): a second's worth of votes on one board and how long
 * each takes to become provable, with the projector's work during the drain.
 */
final class BurstRun {
    private BurstRun() {}

    /**
     * {@code perf burst}: {@code voters} cast votes on one board within one second (one every
     * 1000/voters ms, as in shared/reference/001). A single watcher reads the board's checkpoint every
     * 2 ms; a vote is provable from the first checkpoint that covers its record. Afterwards every vote's
     * proof is requested (each must answer 200) and every vote is counted in the projection: lost must
     * be 0 and none doubled.
     */
    static Map<String, Object> burst(
            PerfEnvironment env, int voters, int batchWaitMs, int warmUpVotes, boolean restartProjector)
            throws Exception {
        Projector projector = env.projector(Duration.ZERO, Duration.ofMillis(batchWaitMs));
        String board = "perf-burst";
        Map<String, Object> out = new LinkedHashMap<>();
        ProjectorProcess restarted = null;
        try (ElectoralLogProducer producer = ElectoralLogProducer.create(env.stack.kafkaBootstrap())) {
            AppendsRun run = new AppendsRun(env.api(), producer);
            run.warmUp(board);
            long warmUpMs = warmUpLoad(run, env, board, warmUpVotes);
            if (restartProjector) {
                // decision 76: the projector restarted in a JVM of its own, PostgreSQL and Kafka running on;
                // its 20 first votes, each provable, show that it has taken the partitions and projects
                env.stopProjector();
                restarted = ProjectorProcess.start(env, batchWaitMs);
                run.warmUp(board);
            }
            String tag = "b" + System.currentTimeMillis() + "-";
            long base = env.sizes().getOrDefault(board, 0L);
            List<long[]> timeline = Collections.synchronizedList(new ArrayList<>()); // {nanos, checkpoint size}
            AtomicBoolean watching = new AtomicBoolean(true);
            Thread watcher = new Thread(
                    () -> {
                        long last = -1;
                        while (watching.get()) {
                            try {
                                long size = run.checkpointSize(board);
                                long now = System.nanoTime();
                                if (size != last) {
                                    timeline.add(new long[] {now, size});
                                    last = size;
                                }
                                Thread.sleep(2); // the watcher's poll interval: latencies are known to within it
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    },
                    "checkpoint-watch");
            watcher.start();
            // the votes are encoded before the timed second, as the voting servers would each encode their
            // own (one load generator thread could not encode 5,000 a second beside the projector), and
            // sent with the producer library's Kafka settings: the bytes on the wire are the library's
            List<ProducerRecord<String, byte[]>> ready = encodedVotes(board, tag, voters);
            long[] published = new long[voters];
            Map<String, Long> before;
            long t0;
            long publishedIn;
            long acknowledgedIn;
            try (KafkaProducer<String, byte[]> kafka = rawProducer(env)) {
                var unused = kafka.partitionsFor(Topics.EVENTS); // metadata before the second
                before = restarted == null ? projector.metrics().snapshot() : Map.of();
                t0 = System.nanoTime();
                long spacing = 1_000_000_000L / voters;
                for (int i = 0; i < voters; i++) {
                    long due = t0 + i * spacing;
                    // parked, not spinning: a spinning generator would take one of the two cores the
                    // system under test shares with it (parkNanos wakes within ~0.1 ms of the due time)
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                    published[i] = System.nanoTime();
                    var unusedAck = kafka.send(ready.get(i));
                }
                publishedIn = System.nanoTime() - t0;
                kafka.flush();
                acknowledgedIn = System.nanoTime() - t0;
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (timeline.isEmpty() || timeline.get(timeline.size() - 1)[1] < base + voters) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the burst was not checkpointed within 2 minutes");
                }
                Thread.sleep(5); // the checkpoint size is the condition
            }
            watching.set(false);
            watcher.join();
            Map<String, Long> after = restarted == null ? projector.metrics().snapshot() : Map.of();
            Map<String, Long> ids = new LinkedHashMap<>();
            long found;
            // the burst's records, and any copy of one, come after the board's size before it (the board
            // only grows): the primary key's range from there, not a walk of the whole board
            // no board row: nothing of the burst was projected, and every vote counts as lost
            List<RecordSamples.UserRecord> rows = env.db.read(r -> {
                Optional<BoardRow> row = r.board(board);
                return row.isEmpty()
                        ? List.<RecordSamples.UserRecord>of()
                        : r.byUserPrefix(row.get().id(), base, tag);
            });
            rows.forEach(r -> ids.put(r.userId(), r.id()));
            found = rows.size();
            Latencies lat = new Latencies();
            long last = 0;
            int proofsOk = 0;
            for (int i = 0; i < voters; i++) {
                Long id = ids.get(tag + i);
                if (id == null) {
                    continue;
                }
                long provableAt = -1;
                synchronized (timeline) {
                    for (long[] t : timeline) {
                        if (t[1] > id) {
                            provableAt = t[0];
                            break;
                        }
                    }
                }
                lat.add((provableAt - published[i]) / 1e6);
                last = Math.max(last, provableAt);
                HttpResponse<String> proof = run.http.send(
                        HttpRequest.newBuilder(URI.create(
                                        run.api.baseUrl() + "/boards/" + board + "/records/" + id + "/proof"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                proofsOk += proof.statusCode() == 200 ? 1 : 0;
            }
            long distinct = ids.size();
            out.put("board", board);
            out.put("voters", voters);
            out.put("published_within_ms", Latencies.round(publishedIn / 1e6));
            out.put("all_acknowledged_by_kafka_ms", Latencies.round(acknowledgedIn / 1e6));
            out.put("drain_ms", Latencies.round((last - t0) / 1e6));
            out.put("after_last_publish_ms", Latencies.round((last - published[voters - 1]) / 1e6));
            out.put("publish_to_provable", lat.summary());
            out.put("latencies_ms", lat.sorted());
            out.put("projected", found);
            out.put(
                    "projector_during_drain",
                    restarted == null
                            ? projectorWork(before, after)
                            : "not measured: the projector ran in a JVM of its own (its metrics are its own)");
            out.put("lost", voters - distinct);
            out.put("doubled", found - distinct);
            out.put("proofs_answered", proofsOk);
            out.put(
                    "method",
                    "votes encoded before the timed second and sent with the producer library's Kafka settings; "
                            + "provable = covered by a signed checkpoint (read every 2 ms); each vote's proof then requested: "
                            + proofsOk + " of " + voters + " answered 200");
            out.put("checkpoints", "signed after every batch for this run");
            out.put("warm_up_votes", warmUpVotes);
            out.put("projector_restarted", restartProjector);
            if (restartProjector) {
                out.put(
                        "projector",
                        "restarted after the warm-up votes, before the 20 single votes and the burst: ProjectorMain "
                                + "in a JVM of its own, configured from its environment; Kafka and PostgreSQL "
                                + "kept running (decision 76)");
            }
            // decisions 75 and 81: statements the projector ran at its start, before any vote
            out.put(
                    "projector_warm_up_statements",
                    restarted == null
                            ? projector.settings().warmUpStatements()
                            : Setting.WARM_UP_STATEMENTS.defaultNumber());
            out.put("warm_up_ms", warmUpMs);
            out.put("projector_batch_wait_ms", batchWaitMs);
            out.put("records_all_boards", env.total());
            out.putAll(env.describe());
            System.err.printf(
                    Locale.ROOT,
                    "burst: %d votes published in %.0f ms, drained (all provable) in %.0f ms; p50 %.1f p95 %.1f p99 %.1f ms; lost %d, doubled %d, proofs %d%n",
                    voters,
                    publishedIn / 1e6,
                    (last - t0) / 1e6,
                    ((Number) lat.summary().get("median_ms")).doubleValue(),
                    ((Number) lat.summary().get("p95_ms")).doubleValue(),
                    ((Number) lat.summary().get("p99_ms")).doubleValue(),
                    voters - distinct,
                    found - distinct,
                    proofsOk);
        } finally {
            if (restarted != null) {
                restarted.close();
            }
        }
        return out;
    }

    /**
     * What the projector did between two snapshots of its metrics: batches committed, records written
     * and the time inside batch transactions (the rest of the drain is Kafka: polls, the Streams
     * transaction commit, and waiting for a batch to fill).
     */
    static Map<String, Object> projectorWork(Map<String, Long> before, Map<String, Long> after) {
        long batches = after.get("batches") - before.get("batches");
        long records = after.get("records_written") - before.get("records_written");
        long micros = after.get("batch_micros_total") - before.get("batch_micros_total");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("batches", batches);
        m.put("records", records);
        m.put("mean_batch_records", batches == 0 ? 0 : Latencies.round((double) records / batches));
        m.put("in_batch_transactions_ms", Latencies.round(micros / 1e3));
        m.put("mean_batch_ms", batches == 0 ? 0 : Latencies.round(micros / 1e3 / batches));
        return m;
    }

    /**
     * Votes of {@code board} encoded as the voting servers would send them (user IDs {@code tag + i}),
     * ready for {@link #rawProducer}.
     */
    private static List<ProducerRecord<String, byte[]>> encodedVotes(String board, String tag, int n) {
        StatementCodec codec = StatementCodec.embedded();
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ElectoralLogProducer.event(
                    Topics.EVENTS,
                    board,
                    codec.encode(Envelope.newBuilder()
                            .setStatement(AppendsRun.vote(board, tag + i))
                            .build())));
        }
        return out;
    }

    /** A Kafka producer with the producer library's settings, sending encoded statements. */
    private static KafkaProducer<String, byte[]> rawProducer(PerfEnvironment env) {
        return new KafkaProducer<>(
                ElectoralLogProducer.defaults(env.stack.kafkaBootstrap()),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /**
     * Before a burst: {@code votes} votes on the board as fast as they go, until a checkpoint covers
     * them, so that the burst meets a projector whose code the JIT has compiled, as in an election
     * where the projector has run for hours before a peak (a burst on a JVM started seconds before
     * measures the interpreter: ~0.5 ms per event in the stream thread instead of ~0.05). Returns the
     * milliseconds it took.
     */
    static long warmUpLoad(AppendsRun run, PerfEnvironment env, String board, int votes) throws Exception {
        if (votes <= 0) {
            return 0;
        }
        long t0 = System.nanoTime();
        long target = run.checkpointSize(board) + votes;
        try (KafkaProducer<String, byte[]> kafka = rawProducer(env)) {
            for (var r : encodedVotes(board, "w" + System.currentTimeMillis() + "-", votes)) {
                var unusedAck = kafka.send(r);
            }
            kafka.flush();
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (run.checkpointSize(board) < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the warm-up votes were not checkpointed within 5 minutes");
            }
            Thread.sleep(20); // the checkpoint size is the condition
        }
        return Math.round((System.nanoTime() - t0) / 1e6);
    }
}
