package org.electorallog.perf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Utils;
import org.electorallog.cluster.ProvableTime;
import org.electorallog.config.Setting;
import org.electorallog.producer.ElectoralLogProducer;

/**
 * {@code perf recovery} (issue 43 item 4): how long the boards of a projector instance that dies stay
 * unprovable. Two projector processes of one application (each its own JVM, {@code ProjectorMain},
 * static membership) share the events topic's two partitions; a vote is published on a board of each
 * partition every {@code intervalMs}; a watcher reads each board's checkpoint every 5 ms. Then:
 *
 * <ol>
 *   <li><b>handover</b>: one instance is killed (SIGKILL); for each board, the time from the kill
 *       until the first vote published after it is provable (in a checkpoint). The board of the
 *       dead instance's partition waits for the group to notice and the survivor to take it over;
 *   <li><b>restart</b>: the survivor, now the only instance, is killed and started again at once with
 *       its instance ID; for each board, the time from its start (and from the kill) until the first
 *       vote published after the kill is provable.
 * </ol>
 *
 * At the end every acknowledged vote must be on its board exactly once (lost 0, doubled 0). The
 * times are measured here, in the results file; no test asserts them.
 */
final class RecoveryRun {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RecoveryRun() {}

    /** One board's votes: when each was published (nanos), and the sizes its checkpoint reached and when. */
    private static final class Board {
        final String name;
        final long startSize;
        final List<Long> published = new CopyOnWriteArrayList<>();
        final AtomicLong acknowledged = new AtomicLong();
        final List<long[]> sizes = new CopyOnWriteArrayList<>(); // {nanos, checkpoint size}

        Board(String name, long startSize) {
            this.name = name;
            this.startSize = startSize;
        }

        /** Nanos from {@code event} until the first vote published at or after it was provable; -1 if never. */
        long recoveryNanos(long event) {
            return ProvableTime.after(published, sizes, startSize, event);
        }
    }

    static Map<String, Object> run(PerfEnvironment env, int intervalMs, int settleSeconds) throws Exception {
        env.stopProjector();
        List<Board> boards = new ArrayList<>();
        for (String name : boardsOnEachPartition("perf-recovery-" + System.currentTimeMillis() + "-")) {
            boards.add(new Board(name, 0));
        }
        String api = env.api().baseUrl();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("vote_interval_ms_per_board", intervalMs);
        out.put("boards", boards.stream().map(b -> b.name).toList());
        AtomicBoolean publishing = new AtomicBoolean(true);
        AtomicBoolean watching = new AtomicBoolean(true);
        ProjectorProcess first = null;
        ProjectorProcess second = null;
        try (ElectoralLogProducer producer = ElectoralLogProducer.create(env.stack.kafkaBootstrap())) {
            first = ProjectorProcess.start(env, 100, "recovery-1", instance(env, "recovery-1"), true);
            second = ProjectorProcess.start(env, 100, "recovery-2", instance(env, "recovery-2"), true);
            Thread watcher = new Thread(() -> watch(api, boards, watching), "recovery-watcher");
            watcher.setDaemon(true);
            watcher.start();
            Thread publisher =
                    new Thread(() -> publish(producer, boards, intervalMs, publishing), "recovery-publisher");
            publisher.setDaemon(true);
            publisher.start();
            awaitSteady(boards, settleSeconds);

            long kill1 = System.nanoTime();
            first.kill();
            System.err.println("recovery: recovery-1 killed at " + Instant.now());
            awaitRecovered(boards, kill1);
            Thread.sleep(settleSeconds * 1000L); // steady again: the survivor has both partitions
            out.put("handover", phase(boards, kill1, kill1));

            long kill2 = System.nanoTime();
            second.kill();
            System.err.println("recovery: recovery-2 killed and restarted at " + Instant.now());
            long start2 = System.nanoTime();
            second = ProjectorProcess.start(env, 100, "recovery-2-restarted", instance(env, "recovery-2"), false);
            awaitRecovered(boards, kill2);
            Map<String, Object> restart = phase(boards, kill2, start2);
            out.put("restart", restart);

            publishing.set(false);
            publisher.join(10_000);
            producer.flush();
            Map<String, Object> counts = new LinkedHashMap<>();
            for (Board b : boards) {
                long expected = b.startSize + b.acknowledged.get();
                long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (checkpointSize(api, b.name) < expected && System.nanoTime() < deadline) {
                    Thread.sleep(20); // the checkpoint size is the condition
                }
                long stored = env.sizes().getOrDefault(b.name, 0L);
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("acknowledged", b.acknowledged.get());
                c.put("projected", stored - b.startSize);
                c.put("lost", Math.max(0, expected - stored));
                c.put("doubled", Math.max(0, stored - expected));
                counts.put(b.name, c);
            }
            out.put("statements", counts);
        } finally {
            publishing.set(false);
            watching.set(false);
            if (first != null) {
                first.kill();
            }
            if (second != null) {
                second.close();
            }
        }
        out.put("projector_settings", settingsInForce());
        out.putAll(env.describe());
        return out;
    }

    /** Each instance's static membership ID and the default warm-up, as a deployment sets them. */
    private static Map<String, String> instance(PerfEnvironment env, String id) {
        // its own state directory, kept across a restart as a deployment keeps it: Kafka Streams keeps
        // the process ID there, so a restarted instance has the same transactional IDs and fences
        // the dead one's open transaction at once instead of waiting for its timeout
        return Map.of(
                Setting.INSTANCE_ID.env,
                id,
                Setting.APPLICATION_ID.env,
                "perf-recovery",
                Setting.STATE_DIR.env,
                env.work.resolve("streams-" + id).toString());
    }

    private static Map<String, Object> settingsInForce() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("application_id", "perf-recovery");
        m.put("instances", 2);
        m.put("static_membership", true);
        m.put("warm_up_statements", Setting.WARM_UP_STATEMENTS.defaultValue);
        m.put("checkpoint_every_ms", 0);
        return m;
    }

    /** The recovery of every board after an event, in milliseconds from {@code event} and from {@code from}. */
    private static Map<String, Object> phase(List<Board> boards, long event, long from) {
        Map<String, Object> m = new LinkedHashMap<>();
        long worst = 0;
        for (Board b : boards) {
            long n = b.recoveryNanos(event);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("provable_after_event_ms", n < 0 ? null : Latencies.round(n / 1e6));
            r.put("provable_after_start_ms", n < 0 ? null : Latencies.round((n - (from - event)) / 1e6));
            m.put(b.name, r);
            worst = n < 0 ? Long.MAX_VALUE : Math.max(worst, n);
        }
        m.put("worst_after_event_ms", worst == Long.MAX_VALUE ? null : Latencies.round(worst / 1e6));
        m.put("worst_after_start_ms", worst == Long.MAX_VALUE ? null : Latencies.round((worst - (from - event)) / 1e6));
        return m;
    }

    private static void publish(
            ElectoralLogProducer producer, List<Board> boards, int intervalMs, AtomicBoolean publishing) {
        long next = System.nanoTime();
        int i = 0;
        while (publishing.get()) {
            for (Board b : boards) {
                b.published.add(System.nanoTime());
                producer.publish(AppendsRun.vote(b.name, "recovery-" + i)).whenComplete((r, e) -> {
                    if (e == null) {
                        b.acknowledged.incrementAndGet();
                    }
                });
            }
            i++;
            next += TimeUnit.MILLISECONDS.toNanos(intervalMs);
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the publishing rate
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void watch(String api, List<Board> boards, AtomicBoolean watching) {
        while (watching.get()) {
            for (Board b : boards) {
                try {
                    long size = checkpointSize(api, b.name);
                    List<long[]> s = b.sizes;
                    if (size >= 0 && (s.isEmpty() || s.get(s.size() - 1)[1] < size)) {
                        s.add(new long[] {System.nanoTime(), size});
                    }
                } catch (Exception e) {
                    // the API answers from PostgreSQL, which stays up: the next read asks again
                }
            }
            try {
                Thread.sleep(5); // the watcher's period
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Waits until every board's latest vote is provable within {@code seconds} of its publication. */
    private static void awaitSteady(List<Board> boards, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            boolean steady = true;
            for (Board b : boards) {
                long recent = now - TimeUnit.SECONDS.toNanos(1);
                steady &= b.recoveryNanos(recent) >= 0;
            }
            if (steady) {
                Thread.sleep(seconds * 1000L); // steady for a while before the fault
                return;
            }
            Thread.sleep(100); // the boards' checkpoints are the condition
        }
        throw new IllegalStateException("the two projector instances did not make both boards provable in 3 minutes");
    }

    /** Waits until, on every board, a vote published after {@code event} is provable (at most 3 minutes). */
    private static void awaitRecovered(List<Board> boards, long event) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (boards.stream().allMatch(b -> b.recoveryNanos(event) >= 0)) {
                return;
            }
            Thread.sleep(100); // the boards' checkpoints are the condition
        }
        throw new IllegalStateException("a board was not provable again within 3 minutes of the fault");
    }

    /** The size line of a board's latest checkpoint, -1 when it has none. */
    static long checkpointSize(String api, String board) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(api + "/boards/" + board + "/checkpoint"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return r.statusCode() == 200 ? Long.parseLong(r.body().split("\n", 3)[1]) : -1;
    }

    /** Two board names whose events land on partitions 0 and 1 of the two-partition events topic (key = board). */
    static List<String> boardsOnEachPartition(String prefix) {
        String[] found = new String[2];
        for (int i = 0; found[0] == null || found[1] == null; i++) {
            String name = prefix + i;
            int partition = Utils.toPositive(Utils.murmur2(name.getBytes(StandardCharsets.UTF_8))) % 2;
            if (found[partition] == null) {
                found[partition] = name;
            }
        }
        return List.of(found[0], found[1]);
    }
}
