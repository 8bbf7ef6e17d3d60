package org.electorallog.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.QueryApi;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;

/**
 * {@code perf appends} and {@code perf burst}: latency from publish to provable, that is until the
 * public proof endpoint answers 200 for the statement's record. A statement is found by its voter
 * (a fresh user ID each) through the ballot locator, then its proof is requested until it answers.
 * The projector signs a checkpoint after every batch for these runs (a proof needs a checkpoint
 * that covers the record).
 */
final class AppendsRun {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String BOARD = "perf-appends";
    final QueryApi api;
    private final ElectoralLogProducer producer;
    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    AppendsRun(QueryApi api, ElectoralLogProducer producer) {
        this.api = api;
        this.producer = producer;
    }

    /** A cast vote of {@code user} on {@code board}, now, with a fresh random ballot. */
    static Statement vote(String board, String user) {
        return new ElectionStatements(board, ThreadLocalRandom.current().nextLong())
                .vote(user, System.currentTimeMillis());
    }

    /** Waits until the proof endpoint answers for the vote of {@code user}; returns the record ID. */
    long awaitProvable(String board, String user, long deadlineNanos) throws Exception {
        long id = -1;
        while (System.nanoTime() < deadlineNanos) {
            if (id < 0) {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(api.baseUrl() + "/boards/" + board
                                        + "/ballots?election_id=election-0&user_id=" + user))
                                // the ballot locator serves observers and above (issue 15); the proof is public
                                .header("Authorization", "Bearer " + PerfEnvironment.ADMIN_TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    JsonNode ballots = JSON.readTree(r.body()).get("ballots");
                    if (ballots.size() > 0) {
                        id = ballots.get(0).get("id").asLong();
                    }
                }
            }
            if (id >= 0) {
                HttpResponse<String> p = http.send(
                        HttpRequest.newBuilder(
                                        URI.create(api.baseUrl() + "/boards/" + board + "/records/" + id + "/proof"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (p.statusCode() == 200) {
                    return id;
                }
            }
            Thread.sleep(2); // poll interval: the proof endpoint's answer is the condition
        }
        throw new IllegalStateException("the vote of " + user + " was not provable in time");
    }

    static Map<String, Object> appends(
            PerfEnvironment env, List<Integer> concurrencies, int perLevel, int batch, int batchWaitMs)
            throws Exception {
        env.projector(Duration.ZERO, Duration.ofMillis(batchWaitMs));
        Map<String, Object> out = new LinkedHashMap<>();
        List<Map<String, Object>> levels = new ArrayList<>();
        try (ElectoralLogProducer producer = ElectoralLogProducer.create(env.stack.kafkaBootstrap())) {
            AppendsRun run = new AppendsRun(env.api(), producer);
            run.warmUp(BOARD);
            for (String mode : List.of("single", "batch")) {
                for (int c : concurrencies) {
                    Latencies lat = new Latencies();
                    int statements = mode.equals("single") ? perLevel : Math.max(perLevel, c * batch);
                    ExecutorService pool = Executors.newFixedThreadPool(c);
                    long t0 = System.nanoTime();
                    List<Future<?>> work = new ArrayList<>();
                    for (int w = 0; w < c; w++) {
                        int share = statements / c;
                        work.add(pool.submit(() -> {
                            if (mode.equals("single")) {
                                for (int i = 0; i < share; i++) {
                                    String user = "a-" + UUID.randomUUID();
                                    long t = System.nanoTime();
                                    producer.publish(vote(BOARD, user)).get(30, TimeUnit.SECONDS);
                                    run.awaitProvable(
                                            BOARD,
                                            user,
                                            t + Duration.ofSeconds(60).toNanos());
                                    lat.add((System.nanoTime() - t) / 1e6);
                                }
                            } else {
                                for (int done = 0; done < share; done += batch) {
                                    List<String> users = new ArrayList<>();
                                    long t = System.nanoTime();
                                    List<CompletableFuture<?>> acks = new ArrayList<>();
                                    for (int i = 0; i < batch; i++) {
                                        String user = "a-" + UUID.randomUUID();
                                        users.add(user);
                                        acks.add(producer.publish(vote(BOARD, user)));
                                    }
                                    for (var a : acks) {
                                        a.get(30, TimeUnit.SECONDS);
                                    }
                                    // one board is one partition: the batch's records are in publish order, so the
                                    // batch is provable when its last statement is; every other one is checked after
                                    run.awaitProvable(
                                            BOARD,
                                            users.get(users.size() - 1),
                                            t + Duration.ofSeconds(60).toNanos());
                                    lat.add((System.nanoTime() - t) / 1e6);
                                    for (String u : users) {
                                        run.awaitProvable(
                                                BOARD,
                                                u,
                                                System.nanoTime()
                                                        + Duration.ofSeconds(60).toNanos());
                                    }
                                }
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : work) {
                        f.get();
                    }
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    pool.shutdown();
                    Map<String, Object> level = new LinkedHashMap<>();
                    level.put("mode", mode);
                    level.put("concurrency", c);
                    if (mode.equals("batch")) {
                        level.put("batch", batch);
                    }
                    level.put("statements", statements / c * c);
                    level.put("seconds", Latencies.round(seconds));
                    level.put("statements_per_second", Math.round(statements / c * c / seconds));
                    level.put("publish_to_provable", lat.summary());
                    level.put("latencies_ms", lat.sorted());
                    levels.add(level);
                    System.err.printf(
                            Locale.ROOT,
                            "appends %-6s x%-3d %,6d statements/s, publish to provable median %.1f ms, p99 %.1f ms%n",
                            mode,
                            c,
                            ((Number) level.get("statements_per_second")).longValue(),
                            ((Number) ((Map<?, ?>) level.get("publish_to_provable")).get("median_ms")).doubleValue(),
                            ((Number) ((Map<?, ?>) level.get("publish_to_provable")).get("p99_ms")).doubleValue());
                }
            }
        }
        out.put("board", BOARD);
        out.put("records_all_boards", env.total());
        out.put("checkpoints", "signed after every batch for this run");
        out.put("projector_batch_wait_ms", batchWaitMs);
        out.put("levels", levels);
        out.putAll(env.describe());
        return out;
    }

    /** 20 votes, each awaited until provable: the path compiled before anything is timed. */
    void warmUp(String board) throws Exception {
        for (int i = 0; i < 20; i++) {
            String user = "warm-" + UUID.randomUUID();
            producer.publish(vote(board, user)).get(30, TimeUnit.SECONDS);
            awaitProvable(
                    board, user, System.nanoTime() + Duration.ofSeconds(60).toNanos());
        }
    }

    /** The size line of a board's latest checkpoint (C2SP tlog-checkpoint: origin, size, root). */
    long checkpointSize(String board) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(api.baseUrl() + "/boards/" + board + "/checkpoint"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            return -1;
        }
        return Long.parseLong(r.body().split("\n", 3)[1]);
    }
}
