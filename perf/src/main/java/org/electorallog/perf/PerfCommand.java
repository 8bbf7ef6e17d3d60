package org.electorallog.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.core.NoteVerifier;
import org.electorallog.store.StorageReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log perf <command>}: the load-test harness (issue 8, docs/perf.md). Every command
 * runs against the persistent embedded stack in {@code --work} and writes a JSON result into
 * {@code --results}; {@code report} turns the results into a Markdown report with PNG charts.
 */
@Command(
        name = "electoral-log perf",
        mixinStandardHelpOptions = true,
        subcommands = {
            PerfCommand.Fill.class,
            PerfCommand.Probe.class,
            PerfCommand.Appends.class,
            PerfCommand.Burst.class,
            PerfCommand.Audit.class,
            PerfCommand.Storage.class,
            PerfCommand.Rebuild.class,
            PerfCommand.Report.class
        },
        description =
                "Load tests of the whole pipeline on an embedded stack that persists in --work (see docs/perf.md)")
public final class PerfCommand implements Runnable {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /** {@code ./electoral-log perf ...}: the script runs this with perf's own classpath, not the launcher's. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, every subcommand with {@code --help}, which exits 0 even when options are required. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PerfCommand());
        withHelp(cl);
        return cl;
    }

    private static void withHelp(CommandLine cl) {
        cl.getCommandSpec().mixinStandardHelpOptions(true);
        cl.getSubcommands().values().forEach(PerfCommand::withHelp);
    }

    /** Options every command shares. */
    static class Dirs {
        @Option(
                names = "--work",
                defaultValue = "perf/target/perf-stack",
                description = "the stack's data (kept between runs); default ${DEFAULT-VALUE}")
        Path work;

        @Option(
                names = "--results",
                defaultValue = "perf/results",
                description = "where results go; default ${DEFAULT-VALUE}")
        Path results;

        Path write(String name, Map<String, Object> result) throws Exception {
            Files.createDirectories(results);
            Path f = results.resolve(name + ".json");
            JSON.writeValue(f.toFile(), result);
            System.out.println("written " + f);
            return f;
        }
    }

    static String label(long records) {
        return ProbeRun.size(records);
    }

    @Command(
            name = "fill",
            description =
                    "Fill boards through producer, Kafka and projector to --target records (resumes), and measure the COPY ceiling")
    static class Fill implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Option(names = "--target", required = true, description = "records on the perf boards when done")
        long target;

        @Option(
                names = "--boards",
                defaultValue = "1",
                description = "boards to spread them over; default ${DEFAULT-VALUE}")
        int boards;

        @Option(
                names = "--signed",
                description =
                        "sign every statement (sender Ed25519) on boards perf-signed-N, which the projector verifies")
        boolean signed;

        @Option(
                names = "--ceiling-every",
                defaultValue = "1000000",
                description = "records per fill window; the COPY ceiling is measured at every window's edge "
                        + "(0: no ceiling); default ${DEFAULT-VALUE}")
        long ceilingEvery;

        @Option(
                names = "--ceiling-rows",
                defaultValue = "50000",
                description = "rows a COPY ceiling window writes (and rolls back); default ${DEFAULT-VALUE}")
        int ceilingRows;

        @Option(
                names = "--batch-records",
                defaultValue = "" + org.electorallog.projector.ProjectorSettings.DEFAULT_BATCH_MAX_RECORDS,
                description = "events a projector batch (one PostgreSQL transaction) holds at most; "
                        + "default ${DEFAULT-VALUE}, the projector's own default")
        int batchRecords;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                env.batchRecords(batchRecords);
                Map<String, Object> r = FillRun.run(env, target, boards, signed, ceilingEvery, ceilingRows);
                if (r.containsKey("published")) {
                    dirs.write("fill-" + (signed ? "signed-" : "") + label(target), r);
                } else {
                    // nothing was measured: keep the result of the fill that got there
                    System.out.println("fill: " + r.get("note"));
                }
            }
            return 0;
        }
    }

    @Command(
            name = "probe",
            description = "Every row of the reference query table over HTTP, warm and cold, with plans")
    static class Probe implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Option(names = "--repeats", defaultValue = "50", description = "warm runs per row; default ${DEFAULT-VALUE}")
        int repeats;

        @Option(
                names = "--no-cold",
                negatable = true,
                defaultValue = "true",
                description = "also measure cold runs (restarts PostgreSQL per row)")
        boolean cold;

        @Option(
                names = "--warm-up-seconds",
                defaultValue = "60",
                description =
                        "every request shape round-robin for this long before any timing; default ${DEFAULT-VALUE}")
        int warmUpSeconds;

        @Option(
                names = "--schedule",
                defaultValue = "INTERLEAVED",
                description = "INTERLEAVED: every row's timed runs in one shuffled sequence; BLOCKS: each row's"
                        + " runs one after the other, row by row (decision 64); default ${DEFAULT-VALUE}")
        ProbeRun.Schedule schedule;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                Map<String, Object> r = ProbeRun.run(
                        env,
                        repeats,
                        cold,
                        java.time.Duration.ofSeconds(warmUpSeconds),
                        schedule,
                        dirs.results.resolve("plans"));
                dirs.write("probe-" + label(((Number) r.get("records")).longValue()), r);
            }
            return 0;
        }
    }

    @Command(
            name = "appends",
            description =
                    "Publish-to-provable latency and throughput, single statements and batches, at several concurrencies")
    static class Appends implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Option(
                names = "--concurrency",
                split = ",",
                defaultValue = "1,4,16",
                description = "producer threads; default ${DEFAULT-VALUE}")
        List<Integer> concurrency;

        @Option(
                names = "--statements",
                defaultValue = "200",
                description = "statements per level; default ${DEFAULT-VALUE}")
        int statements;

        @Option(names = "--batch", defaultValue = "100", description = "statements per batch; default ${DEFAULT-VALUE}")
        int batch;

        @Option(
                names = "--batch-wait-ms",
                defaultValue = "100",
                description = "the projector's batch wait (ELECTORAL_LOG_BATCH_MAX_WAIT_MS); default ${DEFAULT-VALUE}")
        int batchWaitMs;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                Map<String, Object> r = AppendsRun.appends(env, concurrency, statements, batch, batchWaitMs);
                dirs.write("appends-" + label(roundDown(env.total())) + "-wait" + batchWaitMs, r);
            }
            return 0;
        }
    }

    @Command(
            name = "burst",
            description = "N cast votes on one board within one second: drain time, percentiles, lost = 0")
    static class Burst implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Option(names = "--voters", defaultValue = "500", description = "votes in the second; default ${DEFAULT-VALUE}")
        int voters;

        @Option(
                names = "--batch-wait-ms",
                defaultValue = "100",
                description = "the projector's batch wait (ELECTORAL_LOG_BATCH_MAX_WAIT_MS); default ${DEFAULT-VALUE}")
        int batchWaitMs;

        @Option(
                names = "--warm-up-votes",
                defaultValue = "0",
                description = "votes projected before the timed second, so that the burst meets a projector the JIT "
                        + "has compiled (as after hours of an election) rather than one started seconds before; "
                        + "default ${DEFAULT-VALUE}")
        int warmUpVotes;

        @Option(
                names = "--restart-projector",
                description = "after the warm-up votes, stop the projector and start ProjectorMain in a JVM of its "
                        + "own, Kafka and PostgreSQL running on: the burst meets a projector just restarted "
                        + "during an election (decision 76)")
        boolean restartProjector;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                Map<String, Object> r = AppendsRun.burst(env, voters, batchWaitMs, warmUpVotes, restartProjector);
                dirs.write(
                        "burst-" + label(roundDown(env.total())) + "-wait" + batchWaitMs
                                + (voters == 500 ? "" : "-" + voters + "votes")
                                + (warmUpVotes == 0 ? "" : "-warm" + warmUpVotes)
                                + (restartProjector ? "-restarted" : ""),
                        r);
                return ((Number) r.get("lost")).longValue() == 0 && ((Number) r.get("doubled")).longValue() == 0
                        ? 0
                        : 1;
            }
        }
    }

    @Command(name = "audit", description = "Full audit rate of the largest perf board: a first run and a warm run")
    static class Audit implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                String board = env.sizes().entrySet().stream()
                        .filter(e -> e.getKey().matches("perf-[0-9]+"))
                        .max(Map.Entry.comparingByValue())
                        .orElseThrow()
                        .getKey();
                AuditOptions options = AuditOptions.of(List.of(NoteVerifier.parse(env.signer.verifierKey())));
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("board", board);
                for (String run : List.of("first", "warm")) {
                    AuditResult a = new BoardAuditor(env.db, options).audit(board, new BoardAuditor.Progress());
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("records", a.recordsChecked());
                    m.put("seconds", Latencies.round(a.seconds()));
                    m.put("records_per_second", Math.round(a.recordsChecked() / a.seconds()));
                    m.put("verdict", a.clean() ? "clean" : "findings: " + a.counts());
                    r.put(run, m);
                    System.err.printf(
                            "audit %s: %,d records in %.1f s (%,.0f records/s), %s%n",
                            run, a.recordsChecked(), a.seconds(), a.recordsChecked() / a.seconds(), m.get("verdict"));
                }
                r.put("records_all_boards", env.total());
                r.putAll(env.describe());
                dirs.write("audit-" + label(((Number) ((Map<?, ?>) r.get("first")).get("records")).longValue()), r);
            }
            return 0;
        }
    }

    @Command(
            name = "rebuild",
            description = "Replay the whole events topic into an empty database with the projector's settings "
                    + "(recovery by replay): events/s and total time; the database is dropped afterwards")
    static class Rebuild implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Option(names = "--keep", description = "keep the rebuilt database (perf_rebuild_<time>)")
        boolean keep;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                Map<String, Object> r = RebuildRun.rebuild(env, keep);
                dirs.write("rebuild-" + label(roundDown(((Number) r.get("events")).longValue())), r);
            }
            return 0;
        }
    }

    @Command(name = "storage", description = "Bytes per record per relation and per index")
    static class Storage implements Callable<Integer> {
        @CommandLine.Mixin
        Dirs dirs;

        @Override
        public Integer call() throws Exception {
            try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
                StorageReport s = StorageReport.measure(env.db);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("storage", JSON.readTree(s.toJson()));
                r.put(
                        "note",
                        "the projection's tables; the space left by the fill's rolled-back COPY ceiling windows "
                                + "(--ceiling-rows every --ceiling-every records) is in them until VACUUM lets inserts reuse it");
                r.putAll(env.describe());
                System.err.printf("storage: %,d records, %.0f bytes per record%n", s.records(), s.bytesPerRecord());
                dirs.write("storage-" + label(roundDown(s.records())), r);
            }
            return 0;
        }
    }

    @Command(
            name = "report",
            description = "docs/perf.md and its charts from one measured sequence (perf/run-sequence.sh)")
    static class Report implements Callable<Integer> {
        @Option(
                names = "--baseline",
                defaultValue = "perf/baseline",
                description = "the sequence's results and its notes.md; default ${DEFAULT-VALUE}")
        Path baseline;

        @Option(
                names = "--out",
                defaultValue = "docs/perf.md",
                description = "the page; its charts go to charts/ beside it; default ${DEFAULT-VALUE}")
        Path out;

        @Override
        public Integer call() throws Exception {
            ReportWriter.write(baseline, out);
            System.out.println("written " + out);
            return 0;
        }
    }

    /** Sizes are reported in whole millions when the boards are within 5 % of one (appends add a few). */
    static long roundDown(long n) {
        long m = Math.round(n / 1_000_000.0) * 1_000_000;
        return m > 0 && Math.abs(n - m) < m / 20 ? m : n;
    }
}
