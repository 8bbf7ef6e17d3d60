package org.electorallog.perf;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A closed-loop HTTP load: {@code connections} threads, each with a client of its own (one keep-alive
 * connection), each running random operations of the list back to back for the duration; an
 * operation is one GET (a tile, a record proof from the API) or several in a row (a record proof
 * from static tiles), and an answer the caller's check refuses counts it as an error.
 */
final class TileLoad {
    private TileLoad() {}

    /** Requests per second over the run, and the latency percentiles of the answered ones. */
    record Result(long requests, long errors, double perSecond, double p50Ms, double p99Ms, double p999Ms) {
        Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("requests", requests);
            m.put("errors", errors);
            m.put("per_second", Math.round(perSecond));
            m.put("p50_ms", Latencies.round(p50Ms));
            m.put("p99_ms", Latencies.round(p99Ms));
            m.put("p999_ms", Latencies.round(p999Ms));
            return m;
        }
    }

    /** Each path once, so that both servers hold what the runs ask for (the API's memory, the page cache). */
    static void warm(String base, List<String> paths) throws IOException, InterruptedException {
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String p : paths) {
            HttpResponse<byte[]> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + p)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IOException("GET " + base + p + ": HTTP " + r.statusCode());
            }
        }
    }

    /** An answer a full tile must be: 200 with 256 hashes. */
    static final Predicate<HttpResponse<byte[]>> FULL_TILE = r -> r.statusCode() == 200 && r.body().length == 8192;

    /** Any 200. */
    static final Predicate<HttpResponse<byte[]>> OK = r -> r.statusCode() == 200;

    /**
     * {@code connections} clients, each for {@code seconds} running operations picked at random: an
     * operation is its paths fetched one after the other on the client's connection (a record proof
     * from static tiles: the checkpoint and the tiles on its path), timed as one; an answer {@code ok}
     * refuses makes the operation an error.
     */
    static Result run(
            String base,
            List<List<String>> operations,
            int connections,
            int seconds,
            Predicate<HttpResponse<byte[]>> ok)
            throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        AtomicLong errors = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        int[] counts = new int[connections];
        for (int t = 0; t < connections; t++) {
            long[] mine = new long[4_000_000 / Math.max(1, connections)];
            latencies.add(mine);
            int id = t;
            Thread th = new Thread(
                    () -> {
                        HttpClient http = HttpClient.newBuilder()
                                .version(HttpClient.Version.HTTP_1_1)
                                .build();
                        Random random = new Random(id);
                        int k = 0;
                        while (System.nanoTime() < end && k < mine.length) {
                            List<String> op = operations.get(random.nextInt(operations.size()));
                            long t0 = System.nanoTime();
                            try {
                                boolean failed = false;
                                for (String p : op) {
                                    HttpResponse<byte[]> r = http.send(
                                            HttpRequest.newBuilder(URI.create(base + p))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofByteArray());
                                    failed |= !ok.test(r);
                                }
                                if (failed) {
                                    errors.incrementAndGet();
                                    continue;
                                }
                            } catch (IOException e) {
                                errors.incrementAndGet();
                                continue;
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                            mine[k++] = System.nanoTime() - t0;
                        }
                        counts[id] = k;
                    },
                    "tile-load-" + t);
            threads.add(th);
        }
        long t0 = System.nanoTime();
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < connections; t++) {
            System.arraycopy(latencies.get(t), 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        return new Result(total, errors.get(), total / wall, ms(all, 0.50), ms(all, 0.99), ms(all, 0.999));
    }

    private static double ms(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1e6;
    }
}
