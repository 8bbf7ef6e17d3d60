package org.electorallog.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.electorallog.query.QueryApi;
import org.electorallog.schemas.StatementKinds;
import org.electorallog.store.BoardTips;
import org.electorallog.store.Boards;
import org.electorallog.store.BoundStatement;
import org.electorallog.store.Checkpoints;
import org.electorallog.store.RecordExports;
import org.electorallog.store.RecordSamples;
import org.electorallog.store.Records;

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
    private final String board;
    private Short boardId;
    private final long size;
    private final Random random = new Random(11);
    private final List<Map<String, String>> samples = new ArrayList<>();
    private String trustedCheckpoint;

    /** One probe: a name, the reference row it answers, and a request built from a random sample. */
    record Probe(String name, String reference, Function<Map<String, String>, String[]> request) {}

    private ProbeRun(PerfEnvironment env, String board, long size) {
        this.env = env;
        this.api = env.api();
        this.board = board;
        this.size = size;
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
            PerfEnvironment env, int repeats, boolean cold, java.time.Duration warmUp, Schedule schedule, Path plans)
            throws Exception {
        Map<String, Long> sizes = env.sizes();
        String board = sizes.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow(() -> new IllegalStateException("no perf board: run perf fill first"))
                .getKey();
        env.stopProjector();
        ProbeRun p = new ProbeRun(env, board, sizes.get(board));
        p.sample();
        Files.createDirectories(plans);
        List<Probe> probes = p.probes();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String[]> firsts = new ArrayList<>();
        for (Probe probe : probes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", probe.name());
            row.put("reference", probe.reference());
            String[] first = probe.request().apply(p.samples.get(0));
            row.put("request", first[0] + " " + first[1]);
            rows.add(row);
            firsts.add(first);
        }
        String cacheDrop = "not tried";
        int warmUpRequests;
        if (schedule == Schedule.BLOCKS) {
            warmUpRequests = p.warmUp(probes, warmUp);
            for (int r = 0; r < probes.size(); r++) {
                Probe probe = probes.get(r);
                if (cold) {
                    cacheDrop = p.restartCold();
                    rows.get(r).put("cold_ms", Latencies.round(p.time(firsts.get(r))));
                }
                // the row's own shape as many times as it is timed, so its code is compiled before its timing
                for (int i = 0; i < repeats; i++) {
                    p.time(probe.request().apply(p.preWarmSample(i, repeats)));
                }
                Latencies warm = new Latencies();
                JvmActivity before = JvmActivity.now();
                for (int i = 0; i < repeats; i++) {
                    warm.add(p.time(probe.request().apply(p.timedSample(i))));
                }
                Map<String, Object> summary = warm.summary();
                summary.putAll(JvmActivity.now().since(before).during());
                rows.get(r).put("warm", summary);
            }
        } else {
            // cold first (each a PostgreSQL restart), then warm everything again, then one shuffled timing
            for (int r = 0; cold && r < probes.size(); r++) {
                cacheDrop = p.restartCold();
                rows.get(r).put("cold_ms", Latencies.round(p.time(firsts.get(r))));
            }
            warmUpRequests = p.warmUp(probes, warmUp);
            for (int i = 0; i < repeats; i++) {
                for (Probe probe : probes) {
                    p.time(probe.request().apply(p.preWarmSample(i, repeats)));
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
                double ms = p.time(probes.get(run[0]).request().apply(p.timedSample(run[1])));
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
            String plan = p.plan(probes.get(r).name(), firsts.get(r));
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
    private int warmUp(List<Probe> probes, java.time.Duration warmUp) throws Exception {
        long end = System.nanoTime() + warmUp.toNanos();
        int requests = 0;
        do {
            for (Probe probe : probes) {
                time(probe.request().apply(samples.get(requests % samples.size())));
                requests++;
            }
        } while (System.nanoTime() < end);
        return requests;
    }

    /** The sample of a shape's {@code i}-th warm-up run before timing (other samples first than its timed run's). */
    private Map<String, String> preWarmSample(int i, int repeats) {
        return samples.get(1 + (i + repeats / 2) % (samples.size() - 1));
    }

    /** The sample of a row's {@code i}-th timed run (sample 0 is the cold run's). */
    private Map<String, String> timedSample(int i) {
        return samples.get(1 + i % (samples.size() - 1));
    }

    static String size(long n) {
        return n >= 1_000_000 && n % 1_000_000 == 0 ? n / 1_000_000 + "M" : Long.toString(n);
    }

    /** 200 random records of the board: their users, usernames, ballots and times. */
    private void sample() throws Exception {
        try (Connection c = env.db.getConnection()) {
            short id = boardId(c);
            while (samples.size() < 200) {
                RecordSamples.Sample r = RecordSamples.sample(c, id, (long) (random.nextDouble() * size))
                        .orElse(null);
                if (r != null && r.ballotId() != null) {
                    Map<String, String> s = new LinkedHashMap<>();
                    s.put("id", Long.toString(r.id()));
                    s.put("user", r.userId());
                    s.put("username", r.username());
                    s.put("created", r.created().toString());
                    s.put("statement", r.statementTime().toString());
                    s.put("ballot", r.ballotId());
                    s.put("election", r.electionId());
                    samples.add(s);
                }
            }
            trustedCheckpoint = Checkpoints.atOrBelow(c, id, size / 2)
                    .orElseThrow(
                            () -> new IllegalStateException("no checkpoint at or below size " + size / 2 + " to trust"))
                    .note();
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private String[] admin(String query) {
        return new String[] {"GET", "/admin/boards/" + board + "/records" + query};
    }

    private String[] count(String query) {
        return new String[] {"GET", "/admin/boards/" + board + "/records/count" + query};
    }

    private String minute(String instant) {
        return "from=" + instant + "&to=" + Instant.parse(instant).plusSeconds(60);
    }

    List<Probe> probes() {
        List<Probe> p = new ArrayList<>();
        p.add(new Probe("newest page, ID order", "Newest page, ID order (admin default)", s -> admin("")));
        p.add(new Probe("count of the whole board", "Count of the whole board", s -> count("")));
        p.add(new Probe("sort by created", "Sort by created or user ID", s -> admin("?sort=created")));
        p.add(new Probe("sort by user ID", "Sort by created or user ID", s -> admin("?sort=user_id")));
        p.add(new Probe("sort by statement time", "Sort by statement timestamp", s -> admin("?sort=statement_time")));
        p.add(new Probe("sort by kind", "Sort by statement kind", s -> admin("?sort=kind")));
        p.add(new Probe("page at size/2 by ID range", "Page at offset size/2", s -> admin("?to_id=" + size / 2)));
        p.add(new Probe(
                "page deep in the board by cursor",
                "Page at offset size/2",
                s -> admin("?to_id=" + (size / 2 + 100) + "&cursor=" + deepCursor())));
        p.add(new Probe(
                "filter by user ID, page",
                "Filter by user ID, page and count",
                s -> admin("?user_id=" + enc(s.get("user")))));
        p.add(new Probe(
                "filter by user ID, count",
                "Filter by user ID, page and count",
                s -> count("?user_id=" + enc(s.get("user")))));
        p.add(new Probe(
                "filter by username, page",
                "Filter by username, page + count",
                s -> admin("?username=" + enc(s.get("username")))));
        p.add(new Probe(
                "filter by username, count",
                "Filter by username, page + count",
                s -> count("?username=" + enc(s.get("username")))));
        p.add(new Probe("filter by kind, page", "Filter by kind, page / count", s -> admin("?kind=CAST_VOTE")));
        p.add(new Probe("filter by kind, count", "Filter by kind, page / count", s -> count("?kind=CAST_VOTE")));
        p.add(new Probe(
                "filter by created minute, page",
                "Filter by created minute, page / count",
                s -> admin("?"
                        + minute(s.get("created"))
                                .replace("from=", "created_from=")
                                .replace("to=", "created_to="))));
        p.add(new Probe(
                "filter by created minute, count",
                "Filter by created minute, page / count",
                s -> count("?"
                        + minute(s.get("created"))
                                .replace("from=", "created_from=")
                                .replace("to=", "created_to="))));
        p.add(new Probe(
                "filter by statement minute, page",
                "Filter by statement-timestamp minute, page / count",
                s -> admin("?"
                        + minute(s.get("statement"))
                                .replace("from=", "statement_time_from=")
                                .replace("to=", "statement_time_to="))));
        p.add(new Probe(
                "filter by statement minute, count",
                "Filter by statement-timestamp minute, page / count",
                s -> count("?"
                        + minute(s.get("statement"))
                                .replace("from=", "statement_time_from=")
                                .replace("to=", "statement_time_to="))));
        p.add(new Probe(
                "filter by ballot ID, page",
                "Filter by ballot ID, page / count",
                s -> admin("?ballot_id=" + s.get("ballot"))));
        p.add(new Probe(
                "filter by ballot ID, count",
                "Filter by ballot ID, page / count",
                s -> count("?ballot_id=" + s.get("ballot"))));
        p.add(new Probe(
                "election-scoped list, page",
                "Election-scoped list (API only), page / count",
                s -> admin("?visible_elections=election-1,election-3")));
        p.add(new Probe(
                "election-scoped list, count",
                "Election-scoped list (API only), page / count",
                s -> count("?visible_elections=election-1,election-3")));
        p.add(new Probe("count of records with a user", "Count of records with a user", s -> count("?with_user=true")));
        p.add(new Probe(
                "ballot locator, count of the election's votes",
                "Ballot locator: count of the election's votes",
                s -> count("?kind=CAST_VOTE&election_id=" + s.get("election"))));
        p.add(new Probe("ballot locator, page", "Ballot locator: page, own ballot", s -> new String[] {
            "GET", "/boards/" + board + "/ballots?user_id=" + enc(s.get("user")) + "&election_id=" + s.get("election")
        }));
        p.add(new Probe("CSV export batch after an ID (2,500)", "CSV export batch after an ID (2,500)", s ->
                new String[] {"SQL", "csv", s.get("id")}));
        p.add(new Probe("export batch at size/2 (2,500)", "PDF report batch at offset size/2 (2,500)", s ->
                new String[] {"SQL", "export", Long.toString(size / 2)}));
        p.add(new Probe("cast-vote export batch after an ID (1,000)", "Cast-vote export batch after an ID (1,000)", s ->
                new String[] {"SQL", "votes", s.get("id")}));
        p.add(new Probe("current checkpoint", "Current checkpoint", s ->
                new String[] {"GET", "/boards/" + board + "/checkpoint"}));
        p.add(new Probe("record proof, random record", "Record proof, random record", s ->
                new String[] {"GET", "/boards/" + board + "/records/" + s.get("id") + "/proof"}));
        p.add(new Probe("consistency proof", "Consistency proof", s -> new String[] {
            "GET", "/boards/" + board + "/consistency?from=" + Math.max(1, Long.parseLong(s.get("id")))
        }));
        p.add(new Probe(
                "record proof from a trusted checkpoint",
                "Record proof from a trusted checkpoint, cached",
                s -> new String[] {
                    "POST",
                    "/boards/" + board + "/records/" + Math.min(Long.parseLong(s.get("id")), size / 4) + "/proof",
                    trustedCheckpoint
                }));
        return p;
    }

    private String deepCursor() {
        try {
            JsonNode page = JSON.readTree(send(admin("?to_id=" + (size / 2 + 100)))[1]);
            return page.get("next_cursor").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Milliseconds of one request; a failed request is an error, never a timing. */
    double time(String[] request) throws Exception {
        long t = System.nanoTime();
        String[] r = send(request);
        double ms = (System.nanoTime() - t) / 1e6;
        if (!r[0].equals("200")) {
            throw new IllegalStateException(String.join(" ", request) + " answered " + r[0] + ": " + r[1]);
        }
        return ms;
    }

    private String[] send(String[] request) throws Exception {
        if (request[0].equals("SQL")) {
            return sql(request[1], Long.parseLong(request[2]));
        }
        HttpURLConnection c = (HttpURLConnection)
                URI.create(api.baseUrl() + request[1]).toURL().openConnection();
        // the admin listing, and the ballot locator for any user (observers and above, docs/security.md);
        // checkpoints and proofs are asked anonymously, as voters and observers' clients do
        if (request[1].startsWith("/admin/") || request[1].contains("/ballots?")) {
            c.setRequestProperty("Authorization", "Bearer " + PerfEnvironment.ADMIN_TOKEN);
        }
        if (request[0].equals("POST")) {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            try (OutputStream out = c.getOutputStream()) {
                out.write(request[2].getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = c.getResponseCode();
        // reading the body to its end returns the connection to the keep-alive cache
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new String[] {Integer.toString(status), body};
        }
    }

    /**
     * The JVM's total JIT compilation time and GC collections at one moment, and the CPU time the
     * hypervisor gave to other guests ("steal", the eighth value of {@code /proc/stat}'s cpu line, in
     * USER_HZ ticks of 10 ms; -1 where there is no such file).
     */
    record JvmActivity(long jitMillis, long gcCount, long gcMillis, long stealTicks) {
        /**
         * Taken after every timed run, so it is kept cheap: the beans are looked up once (each
         * {@code getGarbageCollectorMXBeans} builds them anew) and only the first line of
         * {@code /proc/stat} is read (its {@code intr} line runs to kilobytes).
         */
        static JvmActivity now() {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean gc : GC) {
                count += Math.max(0, gc.getCollectionCount());
                millis += Math.max(0, gc.getCollectionTime());
            }
            return new JvmActivity(COMPILATION.getTotalCompilationTime(), count, millis, steal());
        }

        private static final List<GarbageCollectorMXBean> GC = ManagementFactory.getGarbageCollectorMXBeans();
        private static final CompilationMXBean COMPILATION = ManagementFactory.getCompilationMXBean();

        private static long steal() {
            try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/stat"), StandardCharsets.US_ASCII)) {
                String line = in.readLine();
                String[] cpu = line == null ? new String[0] : line.trim().split("\\s+");
                return cpu.length > 8 && cpu[0].equals("cpu") ? Long.parseLong(cpu[8]) : -1;
            } catch (java.io.IOException | RuntimeException e) {
                return -1;
            }
        }

        /** Nothing yet: the start of a sum of {@link #since} differences. */
        static final JvmActivity NONE = new JvmActivity(0, 0, 0, 0);

        /** What happened between {@code before} and this moment (steal -1 when either has none). */
        JvmActivity since(JvmActivity before) {
            return new JvmActivity(
                    jitMillis - before.jitMillis,
                    gcCount - before.gcCount,
                    gcMillis - before.gcMillis,
                    stealTicks >= 0 && before.stealTicks >= 0 ? stealTicks - before.stealTicks : -1);
        }

        /** The sum of two differences. */
        JvmActivity plus(JvmActivity other) {
            return new JvmActivity(
                    jitMillis + other.jitMillis,
                    gcCount + other.gcCount,
                    gcMillis + other.gcMillis,
                    stealTicks >= 0 && other.stealTicks >= 0 ? stealTicks + other.stealTicks : -1);
        }

        /** A difference as a row's "during" fields. */
        Map<String, Object> during() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("jit_ms_during", jitMillis);
            m.put("gc_collections_during", gcCount);
            m.put("gc_ms_during", gcMillis);
            if (stealTicks >= 0) {
                m.put("cpu_steal_ms_during", stealTicks * 10);
            }
            return m;
        }
    }

    /**
     * One export batch as the export runs it ({@link RecordExports#exportBatch}), without HTTP: the CSV's
     * fields with leaf hashes from the tiles, the full export's records with statements, or the cast
     * votes' fields. On the query API's export pool, where the export runs: a statement planned
     * for its parameters each time (decision 20). On a pool that keeps PostgreSQL's plans, the cast
     * votes' batch switched after five runs to a generic plan that walks the primary key of each
     * partition (its board_id and kind unknown) and filters, 50 ms where the export takes 1.
     */
    private String[] sql(String which, long from) throws Exception {
        try (Connection c = api.exportPool().getConnection()) {
            int[] n = {0};
            RecordExports.<RuntimeException>exportBatch(
                    c,
                    boardId(c),
                    from,
                    size,
                    batchOf(which),
                    shapeOf(which),
                    (r, leaf) -> n[0] += leaf.length > 0 ? 1 : 0);
            return new String[] {"200", Integer.toString(n[0])};
        }
    }

    private static RecordExports.ExportShape shapeOf(String which) {
        return switch (which) {
            case "csv" -> RecordExports.ExportShape.FIELDS;
            case "export" -> RecordExports.ExportShape.STATEMENTS;
            case "votes" -> RecordExports.ExportShape.fieldsOf(StatementKinds.CAST_VOTE);
            default -> throw new IllegalArgumentException("no export " + which);
        };
    }

    private static int batchOf(String which) {
        return which.equals("votes") ? 1000 : 2500;
    }

    /** The board's ID, read once (an export knows it from its manifest). */
    private short boardId(Connection c) throws Exception {
        if (boardId == null) {
            boardId = readBoardId(c);
        }
        return boardId;
    }

    private short readBoardId(Connection c) throws Exception {
        return Boards.find(c, board)
                .orElseThrow(() -> new IllegalStateException("there is no board " + board))
                .id();
    }

    /** The plan of a probe: the listing and count explain endpoints, or EXPLAIN of the statement. */
    private String plan(String name, String[] request) throws Exception {
        if (request[0].equals("GET") && request[1].startsWith("/admin/boards/")) {
            String path = request[1].contains("/records/count")
                    ? request[1].replace("/records/count", "/records/count/explain")
                    : request[1].replace("/records", "/records/explain");
            String[] r = send(new String[] {"GET", path});
            return r[0].equals("200") ? r[1] : null;
        }
        String sql;
        List<Object> params = new ArrayList<>();
        try (Connection c = env.db.getConnection()) {
            short id = boardId(c);
            if (request[0].equals("SQL")) {
                // the batch's records page; the CSV and cast-vote batches' tile range is in the plan tests
                RecordExports.ExportShape shape = shapeOf(request[1]);
                sql = shape.sql();
                params.add(id);
                if (shape.kind() != null) {
                    params.add(shape.kind());
                }
                params.addAll(List.of(Long.parseLong(request[2]), size, batchOf(request[1])));
            } else if (name.equals("current checkpoint")) {
                sql = BoardTips.TIP_SQL; // the board, its size, checkpoint and cosignatures
                params.add(board);
            } else if (name.equals("ballot locator, page")) {
                Map<String, String> s = samples.get(0);
                sql = Records.BALLOTS_SQL;
                params.addAll(java.util.Arrays.asList(
                        id,
                        StatementKinds.CAST_VOTE,
                        s.get("user"),
                        s.get("election"),
                        Long.MAX_VALUE,
                        null,
                        null,
                        100));
            } else {
                return null; // proofs: the current checkpoint's statement and one tile query, see the plan tests
            }
            return new BoundStatement(sql, params).explain(c);
        }
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
        env.db.getHikariPoolMXBean().softEvictConnections();
        return drop;
    }
}
