package org.electorallog.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofVerifier;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;

/**
 * The rehearsal's election-shaped traffic: a publisher casting votes on every board at a steady
 * rate through {@link ElectoralLogProducer} (acks=all, idempotent), a watcher reading every board's
 * checkpoint through the load balancer every 20 ms (what "provable" is measured by), and voters
 * who each fetch a board's checkpoint and the inclusion proof of a random record at that size, and
 * verify both (the log's signature, RFC 9162 inclusion). Every request's outcome is kept with its
 * time, so a fault's error rate is counted over its window.
 */
final class Workload implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One voter request: when it ended and whether it was answered and verified. */
    record Outcome(long nanos, boolean ok, String error) {}

    final List<BoardTraffic> boards = new ArrayList<>();
    final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> errors = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean publishing = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String api;
    private final List<NoteVerifier> logKey;
    private final ElectoralLogProducer producer;

    Workload(Cluster cluster, int boardCount, int votesPerSecondPerBoard, int voters) {
        this.api = cluster.loadBalancer().baseUrl();
        this.logKey = List.of(NoteVerifier.parse(cluster.signer().verifierKey()));
        this.producer = ElectoralLogProducer.create(cluster.kafka().bootstrap());
        String prefix = "rehearsal-" + System.currentTimeMillis() + "-";
        for (int i = 0; i < boardCount; i++) {
            boards.add(new BoardTraffic(prefix + i));
        }
        start("publisher", () -> publish(votesPerSecondPerBoard));
        start("watcher", this::watch);
        for (int v = 0; v < voters; v++) {
            start("voter-" + v, this::vote);
        }
    }

    private void start(String name, Runnable r) {
        Thread t = new Thread(r, "rehearsal-" + name);
        t.setDaemon(true);
        t.start();
        threads.add(t);
    }

    private void publish(int perSecond) {
        List<ElectionStatements> generators = new ArrayList<>();
        for (BoardTraffic b : boards) {
            generators.add(
                    new ElectionStatements(b.name, ThreadLocalRandom.current().nextLong()));
        }
        long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        int n = 0;
        while (publishing.get()) {
            for (int i = 0; i < boards.size(); i++) {
                BoardTraffic b = boards.get(i);
                Statement s = generators.get(i).vote("voter-" + n, System.currentTimeMillis());
                String id = s.getDeliveryId();
                b.published(System.nanoTime(), id);
                try {
                    var unused = producer.publish(s).whenComplete((r, e) -> {
                        if (e == null) {
                            b.acknowledged.add(id);
                        } else {
                            b.failed.incrementAndGet();
                        }
                    });
                } catch (RuntimeException e) {
                    b.failed.incrementAndGet(); // the producer's buffer was full for max.block.ms
                }
            }
            n++;
            next += period;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                JavaProcess.pause(TimeUnit.NANOSECONDS.toMillis(wait)); // the publishing rate
            }
        }
    }

    private void watch() {
        while (running.get()) {
            for (BoardTraffic b : boards) {
                try {
                    Checkpoint cp = checkpoint(b.name);
                    if (cp != null) {
                        b.served(
                                System.nanoTime(),
                                cp.size(),
                                Base64.getEncoder().encodeToString(cp.root()));
                    }
                } catch (Exception e) {
                    // counted by the voters; the watcher only measures when statements became provable
                }
            }
            JavaProcess.pause(20); // the watcher's period
        }
    }

    private void vote() {
        while (running.get()) {
            BoardTraffic b = boards.get(ThreadLocalRandom.current().nextInt(boards.size()));
            try {
                Checkpoint cp = checkpoint(b.name);
                if (cp == null) {
                    JavaProcess.pause(100); // the board has no checkpoint yet
                    continue;
                }
                b.served(System.nanoTime(), cp.size(), Base64.getEncoder().encodeToString(cp.root()));
                long id = ThreadLocalRandom.current().nextLong(cp.size());
                HttpResponse<String> r = get("/boards/" + b.name + "/records/" + id + "/proof?size=" + cp.size());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("proof: HTTP " + r.statusCode());
                }
                JsonNode p = JSON.readTree(r.body());
                List<byte[]> hashes = new ArrayList<>();
                p.get("hashes").forEach(h -> hashes.add(Base64.getDecoder().decode(h.asText())));
                ProofVerifier.verifyInclusion(
                        id,
                        cp.size(),
                        Base64.getDecoder().decode(p.get("leaf_hash").asText()),
                        hashes,
                        cp.root());
                outcomes.add(new Outcome(System.nanoTime(), true, null));
            } catch (Exception e) {
                String kind = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage());
                errors.merge(kind.length() > 120 ? kind.substring(0, 120) : kind, 1L, Long::sum);
                outcomes.add(new Outcome(System.nanoTime(), false, kind));
                JavaProcess.pause(50); // a failed voter tries again shortly, not in a tight loop
            }
        }
    }

    /** The board's verified checkpoint through the load balancer; null when it has none yet (404). */
    private Checkpoint checkpoint(String board) throws Exception {
        HttpResponse<String> r = get("/boards/" + board + "/checkpoint");
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw new IllegalStateException("checkpoint: HTTP " + r.statusCode());
        }
        return Checkpoint.open(r.body(), logKey);
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(api + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Stops publishing and waits for every publication's answer. */
    void stopPublishing() throws InterruptedException {
        publishing.set(false);
        threads.get(0).join(10_000);
        producer.flush();
    }

    /** Errors by kind, for the report. */
    Map<String, Long> errors() {
        return Map.copyOf(errors);
    }

    @Override
    public void close() {
        publishing.set(false);
        running.set(false);
        try {
            for (Thread t : threads) {
                t.join(15_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            producer.close();
        }
    }
}
