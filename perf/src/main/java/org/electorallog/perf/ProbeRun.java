package org.electorallog.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.HttpURLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.electorallog.query.QueryApi;

/**
 * {@code perf probe}: every row of the reference load test's query table over HTTP (the export
 * batches as the export's own batch, without HTTP), warm (median, p95, p99 over repeats with fresh
 * random parameters) and cold (the first run after a PostgreSQL restart, with the OS page cache
 * dropped where this machine permits), saving each query's plan. The timed runs of all rows are
 * interleaved in one shuffled sequence unless {@link Schedule#BLOCKS} is asked for (decision 69).
 *
 * <p>"Warm" is a server that has been answering for a while: before any timing every request shape
 * runs round-robin for {@code warmUp} (default 60 s), so that the JIT compilers of the JVM that
 * holds the API, the broker and the probe are not still compiling during the timed rows (with a
 * warm-up of five requests a shape they compiled through the first rows' timings, decision 64). Each
 * row records the JIT compilation, GC pause and hypervisor steal time that fell inside its own
 * timed runs, so a row whose tail came from one of them says so. The row's warm-up also brings back
 * into PostgreSQL's cache what its cold run evicted; its 500 runs draw on 199 random samples, so
 * warm means their pages are cached. The client is the JDK's blocking {@link HttpURLConnection}
 * with keep-alive: on the two cores it shares with the server, PostgreSQL and the broker, the
 * asynchronous {@code java.net.http.HttpClient} (a selector thread and a future per request) took
 * about as much CPU as the server it measured.
 */
final class ProbeRun {
    static final ObjectMapper JSON = new ObjectMapper();
    private final PerfEnvironment env;
    private final QueryApi api;
    private final long size;
    private final ProbeClient client;
    private final ProbeCatalogue catalogue;

    private ProbeRun(PerfEnvironment env, String board, long size) {
        this.env = env;
        this.api = env.api();
        this.size = size;
        this.client = new ProbeClient(env, board, size);
        this.catalogue = new ProbeCatalogue(client, board, size);
    }

    /**
     * The order of the timed runs. {@link #BLOCKS} (decision 64): each row's runs one after the
     * other, row by row, so a burst of hypervisor steal lands on the one or two rows that were
     * running (their p95 rose with it, their neighbours' did not). {@link #INTERLEAVED} (decision
     * 69): every row's runs in one sequence shuffled with a fixed seed, so each row samples the
     * whole probe's conditions as a request arriving at a random moment would.
     */
    enum Schedule {
        INTERLEAVED,
        BLOCKS
    }

    static Map<String, Object> run(
            PerfEnvironment env, int repeats, boolean cold, Duration warmUp, Schedule schedule, Path plans)
            throws Exception {
        Map<String, Long> sizes = env.sizes();
        String board = sizes.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow(() -> new IllegalStateException("no perf board: run perf fill first"))
                .getKey();
        env.stopProjector();
        ProbeRun p = new ProbeRun(env, board, sizes.get(board));
        p.catalogue.sample();
        Files.createDirectories(plans);
        List<ProbeCatalogue.Probe> probes = p.catalogue.probes();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String[]> firsts = new ArrayList<>();
        for (ProbeCatalogue.Probe probe : probes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", probe.name());
            row.put("reference", probe.reference());
            String[] first = probe.request().apply(p.catalogue.samples().get(0));
            row.put("request", first[0] + " " + first[1]);
            rows.add(row);
            firsts.add(first);
        }
        String cacheDrop = "not tried";
        int warmUpRequests;
        if (schedule == Schedule.BLOCKS) {
            warmUpRequests = p.warmUp(probes, warmUp);
            for (int r = 0; r < probes.size(); r++) {
                ProbeCatalogue.Probe probe = probes.get(r);
                if (cold) {
                    cacheDrop = p.restartCold();
                    rows.get(r).put("cold_ms", Latencies.round(p.client.time(firsts.get(r))));
                }
                // the row's own shape as many times as it is timed, so its code is compiled before its timing
                for (int i = 0; i < repeats; i++) {
                    p.client.time(probe.request().apply(p.preWarmSample(i, repeats)));
                }
                Latencies warm = new Latencies();
                JvmActivity before = JvmActivity.now();
                for (int i = 0; i < repeats; i++) {
                    warm.add(p.client.time(probe.request().apply(p.timedSample(i))));
                }
                Map<String, Object> summary = warm.summary();
                summary.putAll(JvmActivity.now().since(before).during());
                rows.get(r).put("warm", summary);
            }
        } else {
            // cold first (each a PostgreSQL restart), then warm everything again, then one shuffled timing
            for (int r = 0; cold && r < probes.size(); r++) {
                cacheDrop = p.restartCold();
                rows.get(r).put("cold_ms", Latencies.round(p.client.time(firsts.get(r))));
            }
            warmUpRequests = p.warmUp(probes, warmUp);
            for (int i = 0; i < repeats; i++) {
                for (ProbeCatalogue.Probe probe : probes) {
                    p.client.time(probe.request().apply(p.preWarmSample(i, repeats)));
                }
            }
            List<int[]> order = interleaved(probes.size(), repeats, 11);
            List<Latencies> warm = new ArrayList<>();
            List<JvmActivity> during = new ArrayList<>();
            for (int r = 0; r < probes.size(); r++) {
                warm.add(new Latencies());
                during.add(JvmActivity.NONE);
            }
            JvmActivity last = JvmActivity.now();
            for (int[] run : order) {
                double ms = p.client.time(probes.get(run[0]).request().apply(p.timedSample(run[1])));
                JvmActivity now = JvmActivity.now();
                warm.get(run[0]).add(ms);
                // what happened from the end of the previous run to the end of this one: this run and the probe's
                // bookkeeping
                during.set(run[0], during.get(run[0]).plus(now.since(last)));
                last = now;
            }
            for (int r = 0; r < probes.size(); r++) {
                Map<String, Object> summary = warm.get(r).summary();
                summary.putAll(during.get(r).during());
                rows.get(r).put("warm", summary);
            }
        }
        for (int r = 0; r < probes.size(); r++) {
            Map<String, Object> row = rows.get(r);
            String plan = p.client.plan(
                    probes.get(r).name(), firsts.get(r), p.catalogue.samples().get(0));
            if (plan != null) {
                Path f = plans.resolve(
                        size(p.size) + "-" + probes.get(r).name().replaceAll("[^a-z0-9]+", "-") + ".json");
                Files.writeString(f, plan);
                row.put("plan", f.toString());
            }
            System.err.printf(
                    Locale.ROOT,
                    "probe %-40s median %8.2f ms  p95 %8.2f ms  p99 %8.2f ms%s%n",
                    probes.get(r).name(),
                    warm(row, "median_ms"),
                    warm(row, "p95_ms"),
                    warm(row, "p99_ms"),
                    cold
                            ? String.format(Locale.ROOT, "  cold %8.2f ms", ((Number) row.get("cold_ms")).doubleValue())
                            : "");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("board", board);
        out.put("records", p.size);
        out.put("records_all_boards", env.total());
        out.put("repeats", repeats);
        out.put("warm_up", Map.of("seconds", warmUp.toSeconds(), "requests", warmUpRequests));
        out.put(
                "schedule",
                schedule == Schedule.BLOCKS
                        ? "blocks: each row's shape " + repeats + " times, then its " + repeats
                                + " timed runs, row by row"
                        : "interleaved: every shape " + repeats + " times round-robin, then all rows' timed runs "
                                + "in one sequence shuffled with seed 11");
        out.put("client", "java.net.HttpURLConnection, keep-alive, one request at a time");
        out.put(
                "cold",
                cold
                        ? (schedule == Schedule.BLOCKS
                                        ? "each row's first run after a PostgreSQL restart"
                                        : "each row's first run after a PostgreSQL restart, all rows before the warm-up")
                                + "; OS page cache: " + cacheDrop
                        : "not measured");
        out.put("rows", rows);
        out.putAll(env.describe());
        return out;
    }

    /**
     * The timed runs of an interleaved probe: every (row, run) pair once, {@code rows} x
     * {@code repeats} of them, shuffled with {@code seed} so that two probes time in the same order.
     */
    static List<int[]> interleaved(int rows, int repeats, long seed) {
        List<int[]> order = new ArrayList<>(rows * repeats);
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < repeats; i++) {
                order.add(new int[] {r, i});
            }
        }
        Collections.shuffle(order, new Random(seed));
        return order;
    }

    /** Every request shape round-robin for {@code warmUp}; returns how many requests that took. */
    private int warmUp(List<ProbeCatalogue.Probe> probes, Duration warmUp) throws Exception {
        long end = System.nanoTime() + warmUp.toNanos();
        int requests = 0;
        do {
            for (ProbeCatalogue.Probe probe : probes) {
                client.time(probe.request()
                        .apply(catalogue
                                .samples()
                                .get(requests % catalogue.samples().size())));
                requests++;
            }
        } while (System.nanoTime() < end);
        return requests;
    }

    /** The sample of a shape's {@code i}-th warm-up run before timing (other samples first than its timed run's). */
    private Map<String, String> preWarmSample(int i, int repeats) {
        List<Map<String, String>> samples = catalogue.samples();
        return samples.get(1 + (i + repeats / 2) % (samples.size() - 1));
    }

    /** The sample of a row's {@code i}-th timed run (sample 0 is the cold run's). */
    private Map<String, String> timedSample(int i) {
        List<Map<String, String>> samples = catalogue.samples();
        return samples.get(1 + i % (samples.size() - 1));
    }

    static String size(long n) {
        return n >= 1_000_000 && n % 1_000_000 == 0 ? n / 1_000_000 + "M" : Long.toString(n);
    }

    private static double warm(Map<String, Object> row, String key) {
        return ((Number) ((Map<?, ?>) row.get("warm")).get(key)).doubleValue();
    }

    /** Restarts PostgreSQL and tries to drop the OS page cache; says whether that was permitted. */
    private String restartCold() throws Exception {
        env.stack.postgres().stop();
        String drop;
        try {
            new ProcessBuilder("sync").start().waitFor();
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
            drop = "dropped before each row";
        } catch (Exception e) {
            drop = "NOT dropped (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "), so cold means PostgreSQL's own cache only";
        }
        env.stack.postgres().restart();
        api.reconnect(); // connections made before or during the restart are dead
        env.db.reconnect();
        return drop;
    }
}
