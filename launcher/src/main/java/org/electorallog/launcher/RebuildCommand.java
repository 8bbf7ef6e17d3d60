package org.electorallog.launcher;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteVerifier;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.ProjectorConfig;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Replay;
import org.electorallog.store.Projection;
import org.electorallog.store.Registry;
import org.electorallog.store.SenderGrant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log rebuild --into <jdbc-url>}: recovery by replay (BRIEF invariant 2,
 * docs/operations.md "Recovery by replay"). Projects the events topic from offset 0 into an empty
 * database with exactly the projector's configuration (the shared configuration: Kafka security,
 * secrets, signature policy, sender registry, origin prefix, signing key), showing progress with an
 * ETA; then audits every board of the result (the log's signature on every checkpoint) and, when
 * the live projection ({@code ELECTORAL_LOG_JDBC_URL}) answers, compares the two board by board. It
 * works when the live database is gone: the sender registry then comes from a file
 * ({@code senders export}). Exit 0 when every audit is clean and the comparison (if any) equal, 1 on
 * findings or differences, 2 on any other failure with a one-line message.
 */
@Command(
        name = "rebuild",
        mixinStandardHelpOptions = true,
        description = "Replay the topic into an empty database with the projector's configuration, audit it and "
                + "compare it with the live projection. Exit 0 equal and clean, 1 findings, 2 failure.")
public final class RebuildCommand implements Callable<Integer> {
    @Option(
            names = "--into",
            required = true,
            paramLabel = "JDBC-URL",
            description = "an empty database to rebuild into (same login as the projector's)")
    String into;

    @Option(
            names = "--registry",
            paramLabel = "FILE",
            description = "the sender registry to apply (electoral-log senders export); default: copied from the "
                    + "live projection")
    Path registry;

    @Option(names = "--timeout", defaultValue = "86400", description = "seconds allowed for the replay")
    int timeoutSeconds;

    @Option(names = "--results", paramLabel = "FILE", description = "write the replay's figures here as JSON")
    Path results;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            return rebuild();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("\nrebuild: interrupted");
            return 2;
        } catch (Exception e) {
            err.println("\nrebuild: " + AuditCommand.oneLine(e));
            return 2;
        }
    }

    private int rebuild() throws Exception {
        Configuration conf = Configuration.load(environment);
        ProjectorSettings live = ProjectorConfig.from(conf);
        // the audit's settings (log keys, signature policy, witnesses) are read now, so a bad one is
        // refused before the replay rather than after it (the audit runs per board at the end)
        var unusedAuditOptions = AuditCommand.options(conf, "", List.of());
        if (into.equals(live.jdbcUrl())) {
            throw new IllegalArgumentException("--into names the live projection (ELECTORAL_LOG_JDBC_URL)");
        }
        Projection liveDb = reachable(live);
        try {
            try (Projection target = pool(live, into, "rebuild-target")) {
                if (target.anyBoard()) {
                    throw new IllegalArgumentException(
                            into + " is not empty (it has boards); rebuild needs an empty " + "database");
                }
                target.migrate();
                applyRegistry(target, liveDb, live);
                // the data keys of the committed form are not in the topic: the replay opens values with the live ones
                if (liveDb == null) {
                    out.println("rebuild: no data keys copied (the live projection does not answer): statements in "
                            + "the committed form are dead-lettered UNKNOWN_DATA_KEY unless the key store is restored");
                } else {
                    int keys = target.copyKeysFrom(liveDb);
                    if (keys > 0) {
                        out.printf("copied %,d data keys of the committed form into %s%n", keys, into);
                    }
                }
            }
            Map<String, Object> client = new HashMap<>();
            live.kafkaClient().forEach((k, v) -> client.put(String.valueOf(k), v));
            Map<Integer, Long> end = Replay.endOffsets(live.kafkaClient(), live.topic());
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            out.printf(
                    "replaying %s (%,d events in %d partitions) into %s with the projector's settings%n",
                    live.topic(), total, end.size(), into);
            // the replay's dead letters go to a topic of their own: the live ones were delivered already
            String deadLetters = live.deadLetterTopic() + ".rebuild";
            EventsTopic.ensure(client, deadLetters, 1, (short) -1);
            Path state = Files.createTempDirectory("rebuild-state-");
            ProjectorSettings settings = live.withDatabase(into, live.dbUser(), live.dbPassword())
                    .forReplay("electoral-log-rebuild-" + System.currentTimeMillis(), deadLetters)
                    .withStateDir(state);
            Replay.Result replayed =
                    Replay.run(settings, end, Duration.ofSeconds(timeoutSeconds), line -> out.print("\r" + line));
            double seconds = replayed.seconds();
            out.printf(
                    "%nreplayed %,d events in %.1f s (%,.0f events/s)%n",
                    total, seconds, total / Math.max(seconds, 1e-9));

            List<String> problems = new ArrayList<>();
            Map<String, Object> figures = new LinkedHashMap<>();
            try (Projection target = pool(live, into, "rebuild-audit")) {
                auditAll(conf, settings, target, problems, figures);
                if (liveDb == null) {
                    out.println("rebuild: the live projection does not answer; nothing to compare with");
                } else {
                    List<String> differences = target.differencesFrom(liveDb);
                    if (differences.isEmpty()) {
                        out.println("rebuild: EQUAL: every board's size, root, records, tiles and counters match the "
                                + "live projection");
                    } else {
                        out.println("rebuild: DIFFERENT:");
                        differences.forEach(d -> out.println("  " + d));
                        problems.addAll(differences);
                    }
                    // an erasure made in the live projection during the replay is not in the rebuilt one
                    List<String> missed = target.missedErasuresOf(liveDb);
                    if (!missed.isEmpty()) {
                        out.println("rebuild: NOT FIT TO PROMOTE: erased in the live projection during the replay, "
                                + "not in the rebuilt one (run rebuild again into an empty database):");
                        missed.forEach(m -> out.println("  " + m));
                        problems.addAll(missed);
                    }
                }
            }
            if (results != null) {
                figures.put("events", total);
                figures.put("seconds", Math.round(seconds * 1000) / 1000.0);
                figures.put("events_per_second", Math.round(total / Math.max(seconds, 1e-9)));
                figures.put("clean", problems.isEmpty());
                figures.put("cores", Runtime.getRuntime().availableProcessors());
                figures.put("commit", commit());
                Files.writeString(
                        results,
                        new com.fasterxml.jackson.databind.ObjectMapper()
                                        .writerWithDefaultPrettyPrinter()
                                        .writeValueAsString(figures)
                                + "\n",
                        StandardCharsets.UTF_8);
            }
            if (problems.isEmpty()) {
                out.println("rebuild: done; to promote it, see docs/operations.md \"Recovery by replay\"");
                return 0;
            }
            return 1;
        } finally {
            if (liveDb != null) {
                liveDb.close();
            }
        }
    }

    /** Audits every board of the rebuilt projection with the log's own verifier key (and any configured). */
    private void auditAll(
            Configuration conf,
            ProjectorSettings settings,
            Projection target,
            List<String> problems,
            Map<String, Object> figures)
            throws Exception {
        List<String> boards = target.boardNames();
        long records = 0;
        long t0 = System.nanoTime();
        for (String board : boards) {
            AuditOptions base = AuditCommand.options(conf, board, List.of());
            List<NoteVerifier> keys = new ArrayList<>(base.logKeys());
            keys.add(NoteVerifier.parse(settings.signer().verifierKey()));
            AuditOptions options = new AuditOptions(
                    keys, base.requireSenderSignature(), base.systemKeys(), base.pageSize(), base.witnesses());
            AuditResult r = new BoardAuditor(target, options).audit(board, new BoardAuditor.Progress());
            records += r.recordsChecked();
            out.printf(
                    "audit %s: %,d records, %s%n",
                    board, r.recordsChecked(), r.clean() ? "CLEAN" : "FINDINGS " + r.counts());
            if (!r.clean()) {
                problems.add("board " + board + ": audit findings " + r.counts());
            }
        }
        figures.put("boards", boards.size());
        figures.put("records", records);
        figures.put("audit_seconds", Math.round((System.nanoTime() - t0) / 1e6) / 1000.0);
    }

    /** The sender registry of the rebuilt projection: from the file, or copied from the live projection. */
    private void applyRegistry(Projection target, Projection liveDb, ProjectorSettings live) throws Exception {
        List<SenderGrant> grants = List.of();
        String from = "nowhere";
        if (registry != null) {
            grants = RegistryFile.read(registry);
            from = registry.toString();
        } else if (liveDb != null) {
            Registry c = liveDb.registry();
            if (c.present()) {
                grants = c.all();
                from = "the live projection";
            }
        }
        if (grants.isEmpty() && live.signatures().registry()) {
            throw new IllegalArgumentException("the sender registry is enforced (ELECTORAL_LOG_SENDER_REGISTRY) and "
                    + "there are no grants to apply: give --registry FILE (written by electoral-log senders export)");
        }
        target.registry().restore(grants);
        if (!grants.isEmpty()) {
            out.println("rebuild: applied " + grants.size() + " sender grant(s) from " + from);
        }
    }

    /** The live projection's pool, or null when it does not answer (the rebuild goes on without it). */
    private Projection reachable(ProjectorSettings live) {
        try {
            Projection ds = pool(live, live.jdbcUrl(), "rebuild-live");
            if (!ds.reachable(10)) {
                ds.close();
                return null;
            }
            return ds;
        } catch (Exception e) {
            out.println("rebuild: the live projection (" + live.jdbcUrl() + ") does not answer: "
                    + AuditCommand.oneLine(e));
            return null;
        }
    }

    private static Projection pool(ProjectorSettings s, String url, String name) {
        return Projection.open(new DatabaseLogin(url, s.dbUser(), s.dbPassword()), 2, name);
    }

    static Map<Integer, Long> endOffsets(String servers, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers);
        return Replay.endOffsets(p, topic);
    }

    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? s : "unknown";
        } catch (Exception e) {
            return "unknown";
        }
    }
}
