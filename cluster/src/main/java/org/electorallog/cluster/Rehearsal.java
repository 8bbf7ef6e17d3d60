package org.electorallog.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The election-day rehearsal (issue 43 item 3): the reference topology started ({@link Cluster}),
 * election-shaped traffic running through it ({@link Workload}), and the faults of {@link Fault#script}
 * one after another, each left for a while, healed, and given time to settle. It measures, per
 * fault, how long until the first statement published after it was provable through the load
 * balancer and the voters' error rate meanwhile; at the end it checks the zeros ({@link Verdict}):
 * nothing lost, doubled or dead-lettered, no checkpoint served that is not a prefix of the final
 * tree, and the projection equal to a replay. It writes everything to a JSON results file.
 *
 * @param boards        boards voted on (two per events partition is enough to load both projectors)
 * @param votesPerBoard votes per second on each board
 * @param voters        voter threads fetching checkpoints and proofs through the load balancer
 * @param faultLasts    how long a node stays dead before it is restarted
 * @param cut           how long the projectors' database path is cut
 * @param settle        steady traffic before the first fault and after each recovery
 * @param faults        the names of the faults to try, in the script's order (all of them by default)
 */
public record Rehearsal(
        int boards,
        int votesPerBoard,
        int voters,
        Duration faultLasts,
        Duration cut,
        Duration settle,
        List<String> faults) {
    /** A board is keeping up when no statement has waited longer than this to be provable. */
    static final Duration STEADY_LAG = Duration.ofSeconds(3);
    /** ... for this long without a break, before a fault. */
    static final Duration STEADY_FOR = Duration.ofSeconds(5);
    /** The longest wait for a steady cluster; the fault comes then anyway, recorded as not steady. */
    static final Duration STEADY_WITHIN = Duration.ofMinutes(2);

    public Rehearsal {
        faults = List.copyOf(faults);
        List<String> known = Fault.names();
        for (String f : faults) {
            if (!known.contains(f)) {
                throw new IllegalArgumentException("no fault named '" + f + "'; the faults are " + known);
            }
        }
    }

    /** The size CI runs: every fault, short waits. */
    public static Rehearsal small() {
        return new Rehearsal(
                4, 10, 2, Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(3), Fault.names());
    }

    /** The full rehearsal (perf rehearse, -Pfull): the 30 s database cut, more traffic. */
    public static Rehearsal full() {
        return new Rehearsal(
                8, 25, 8, Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(10), Fault.names());
    }

    /** The same size trying only the named faults (still in the script's order); unknown names are refused. */
    public Rehearsal only(List<String> names) {
        return new Rehearsal(boards, votesPerBoard, voters, faultLasts, cut, settle, names);
    }

    /**
     * Runs the rehearsal in {@code work} (emptied first) and writes {@code results}, with {@code
     * machine} (what it ran on, the commit) first; returns what it wrote.
     */
    public Map<String, Object> run(Path work, Path results, Map<String, Object> machine) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("started", Instant.now().toString());
        out.put("machine", machine);
        out.put("settings", settings());
        long t0 = System.nanoTime();
        try (Cluster c = Cluster.start(work)) {
            out.put("cluster_start_s", seconds(System.nanoTime() - t0));
            try (Workload w = new Workload(c, boards, votesPerBoard, voters)) {
                awaitProvable(w, System.nanoTime(), Duration.ofMinutes(3));
                JavaProcess.pause(settle.toMillis());
                List<Map<String, Object>> faults = new ArrayList<>();
                for (Fault f : Fault.script(cut)) {
                    if (faults().contains(f.name)) {
                        faults.add(rehearse(c, w, f, t0));
                    }
                }
                out.put("faults", faults);
                w.stopPublishing();
                Map<String, Object> statements = Verdict.statements(c, w, Duration.ofMinutes(3));
                out.put("statements", statements);
                out.put("dead_lettered", Verdict.deadLetters(c));
                List<String> inconsistent = Verdict.servedCheckpoints(c, w);
                out.put(
                        "checkpoints_served",
                        w.boards.stream().mapToInt(b -> b.roots.size()).sum());
                out.put("checkpoints_inconsistent", inconsistent);
                out.put("voter_errors_by_kind", w.errors());
                out.put("witnessed", Verdict.witnessed(c, w, Duration.ofMinutes(1)));
                out.put("rebuild", Rebuild.run(c));
            }
        } finally {
            out.put("seconds", seconds(System.nanoTime() - t0));
            Files.createDirectories(results.toAbsolutePath().getParent());
            Files.writeString(
                    results, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(out) + "\n");
        }
        return out;
    }

    private Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("boards", boards);
        m.put("votes_per_second_per_board", votesPerBoard);
        m.put("voters", voters);
        m.put("fault_lasts_s", faultLasts.toSeconds());
        m.put("database_cut_s", cut.toSeconds());
        m.put("settle_s", settle.toSeconds());
        m.put("steady_lag_s", STEADY_LAG.toSeconds());
        m.put("steady_for_s", STEADY_FOR.toSeconds());
        m.put("faults", faults);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }

    private Map<String, Object> rehearse(Cluster c, Workload w, Fault f, long runStart) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fault", f.name);
        m.put("what", f.what);
        m.put("steady_before", awaitSteady(w));
        f.prepare(c);
        System.err.println("rehearsal: " + f.name + " at " + Instant.now());
        long injected = System.nanoTime();
        m.put("lag_before_s", seconds(lag(w, injected)));
        m.put("at_s", seconds(injected - runStart));
        m.put("detail", f.inject(c));
        m.putAll(f.facts());
        JavaProcess.pause(f.lasts(faultLasts).toMillis());
        long healing = System.nanoTime();
        f.heal(c);
        long healed = System.nanoTime();
        m.put("lasted_s", seconds(healing - injected));
        m.put("heal_s", seconds(healed - healing));
        awaitProvable(w, healed, Duration.ofMinutes(3));
        long worst = 0;
        for (BoardTraffic b : w.boards) {
            worst = Math.max(worst, b.provableAfter(injected));
        }
        long recovered = System.nanoTime();
        m.put("first_statement_after_fault_provable_s", seconds(worst));
        long ok = 0;
        long failed = 0;
        for (Workload.Outcome o : w.outcomes) {
            if (o.nanos() >= injected && o.nanos() <= recovered) {
                if (o.ok()) {
                    ok++;
                } else {
                    failed++;
                }
            }
        }
        m.put("voter_requests", ok + failed);
        m.put("voter_errors", failed);
        m.put("voter_error_rate", ok + failed == 0 ? 0.0 : Math.round(failed * 10_000.0 / (ok + failed)) / 10_000.0);
        JavaProcess.pause(settle.toMillis());
        System.err.println("rehearsal: " + f.name + " " + m);
        return m;
    }

    /**
     * Waits until the cluster keeps up (every board's {@link BoardTraffic#lag} at most {@link
     * #STEADY_LAG} for {@link #STEADY_FOR}), at most {@link #STEADY_WITHIN}; false when it did not.
     * A fault is measured from a steady cluster, not from one still warming up or catching up with
     * the last fault: what a board then takes to be provable is the fault's, not a backlog's.
     */
    private static boolean awaitSteady(Workload w) {
        long deadline = System.nanoTime() + STEADY_WITHIN.toNanos();
        long steadySince = -1;
        while (System.nanoTime() < deadline) {
            long now = System.nanoTime();
            if (lag(w, now) > STEADY_LAG.toNanos()) {
                steadySince = -1;
            } else if (steadySince < 0) {
                steadySince = now;
            } else if (now - steadySince >= STEADY_FOR.toNanos()) {
                return true;
            }
            JavaProcess.pause(100); // the served checkpoints are the condition
        }
        return false;
    }

    /** The largest lag of any board at {@code now}. */
    private static long lag(Workload w, long now) {
        return w.boards.stream().mapToLong(b -> b.lag(now)).max().orElse(0);
    }

    /** Waits until on every board a statement published at or after {@code since} is provable. */
    private static void awaitProvable(Workload w, long since, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!w.boards.stream().allMatch(b -> b.provableAfter(since) >= 0)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("a board was not provable within " + timeout.toSeconds()
                        + " s; served sizes: "
                        + w.boards.stream()
                                .map(b -> b.name + "=" + b.servedSize())
                                .toList());
            }
            JavaProcess.pause(100); // the served checkpoints are the condition
        }
    }

    static double seconds(long nanos) {
        return Math.round(nanos / 1e6) / 1000.0;
    }
}
