package org.electorallog.launcher;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.config.Configuration;
import org.electorallog.core.NoteVerifier;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Replay;
import org.electorallog.store.Projection;
import org.electorallog.store.Registry;
import org.electorallog.store.SenderGrant;

/**
 * Recovery by replay as one operation (BRIEF invariant 2, docs/operations.md "Recovery by replay"),
 * which {@link RebuildCommand} runs: the empty target prepared (schema, sender registry, the
 * committed form's data keys, all through the store), the topic replayed into it with the
 * projector's settings ({@link Replay}), every board audited with the log's key, and the result
 * compared with the live projection when it answers. It reports each step to {@code out} and
 * returns what it found.
 */
final class Rebuilding {
    /** What a rebuild found: its problems (none: equal and clean) and its figures. */
    record Outcome(List<String> problems, Map<String, Object> figures) {}

    private final Configuration conf;
    private final ProjectorSettings live;
    private final String into;
    private final Path registry;
    private final PrintStream out;

    /**
     * @param registry the sender registry to apply (a {@code senders export} file), or null to copy
     *                 the live projection's
     */
    Rebuilding(Configuration conf, ProjectorSettings live, String into, Path registry, PrintStream out) {
        if (into.equals(live.login().jdbcUrl())) {
            throw new IllegalArgumentException("--into names the live projection (ELECTORAL_LOG_JDBC_URL)");
        }
        this.conf = conf;
        this.live = live;
        this.into = into;
        this.registry = registry;
        this.out = out;
    }

    /** Prepares, replays within {@code timeout}, audits and compares. */
    Outcome run(Duration timeout) throws Exception {
        Projection liveDb = reachable();
        try {
            try (Projection target = pool(live, into, "rebuild-target")) {
                if (target.anyBoard()) {
                    throw new IllegalArgumentException(
                            into + " is not empty (it has boards); rebuild needs an empty " + "database");
                }
                target.migrate();
                applyRegistry(target, liveDb);
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
            ProjectorSettings settings = live.withDatabase(live.login().atUrl(into))
                    .forReplay("electoral-log-rebuild-" + System.currentTimeMillis(), deadLetters)
                    .withStateDir(state);
            Replay.Result replayed = Replay.run(settings, end, timeout, line -> out.print("\r" + line));
            double seconds = replayed.seconds();
            out.printf(
                    "%nreplayed %,d events in %.1f s (%,.0f events/s)%n",
                    total, seconds, total / Math.max(seconds, 1e-9));

            List<String> problems = new ArrayList<>();
            Map<String, Object> figures = new LinkedHashMap<>();
            try (Projection target = pool(live, into, "rebuild-audit")) {
                auditAll(settings, target, problems, figures);
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
            figures.put("events", total);
            figures.put("seconds", Math.round(seconds * 1000) / 1000.0);
            figures.put("events_per_second", Math.round(total / Math.max(seconds, 1e-9)));
            return new Outcome(problems, figures);
        } finally {
            if (liveDb != null) {
                liveDb.close();
            }
        }
    }

    /** Audits every board of the rebuilt projection with the log's own verifier key (and any configured). */
    private void auditAll(
            ProjectorSettings settings, Projection target, List<String> problems, Map<String, Object> figures)
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
    private void applyRegistry(Projection target, Projection liveDb) throws Exception {
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
    private Projection reachable() {
        try {
            Projection ds = pool(live, live.login().jdbcUrl(), "rebuild-live");
            if (!ds.reachable(10)) {
                ds.close();
                return null;
            }
            return ds;
        } catch (Exception e) {
            out.println("rebuild: the live projection (" + live.login().jdbcUrl() + ") does not answer: "
                    + AuditCommand.oneLine(e));
            return null;
        }
    }

    private static Projection pool(ProjectorSettings s, String url, String name) {
        return Projection.open(s.login().atUrl(url), 2, name);
    }
}
