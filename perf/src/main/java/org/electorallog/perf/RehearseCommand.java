package org.electorallog.perf;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.cluster.Rehearsal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perf rehearse} (issue 43 item 3): the election-day rehearsal on the reference topology
 * (cluster module, docs/operations.md "The reference topology"): every fault of the script under
 * election-shaped traffic; the results file holds the recovery times, the voters' error rates and
 * the zeros. Exit 0 when nothing was lost, doubled, dead-lettered or forked and the rebuild was
 * equal; 1 otherwise.
 */
@Command(
        name = "rehearse",
        description = "Start the reference cluster (3 Kafka nodes, PostgreSQL primary + standby, 2 projectors, "
                + "2 APIs behind haproxy) and run the fault script under traffic; exit 0 when the zeros hold")
final class RehearseCommand implements Callable<Integer> {
    @Option(
            names = "--cluster",
            defaultValue = "perf/target/rehearsal",
            description = "the cluster's data (emptied first); default ${DEFAULT-VALUE}")
    Path cluster;

    @Option(
            names = "--results",
            defaultValue = "perf/results",
            description = "where the results file goes; default ${DEFAULT-VALUE}")
    Path results;

    @Option(names = "--small", description = "the size CI runs (4 boards, 10 s faults) instead of the full one")
    boolean small;

    @Option(
            names = "--fault",
            paramLabel = "NAME",
            description = "try only this fault (repeatable; still in the script's order): broker-leader-kill, "
                    + "projector-kill, api-kill, database-path-cut, primary-failover")
    List<String> only;

    @Override
    @SuppressWarnings("unchecked")
    public Integer call() throws Exception {
        Rehearsal size = small ? Rehearsal.small() : Rehearsal.full();
        if (only != null && !only.isEmpty()) {
            size = size.only(only);
        }
        // rehearsal-full-N, rehearsal-small-N; with --fault, the faults' names instead of "full"
        String what = only == null || only.isEmpty()
                ? (small ? "small" : "full")
                : (small ? "small-" : "") + String.join("-", size.faults());
        Path file = results.resolve("rehearsal-" + what + "-" + System.currentTimeMillis() / 1000 + ".json");
        Map<String, Object> out = size.run(cluster, file, Machine.describe());
        System.out.println("written " + file);
        Map<String, Object> statements = (Map<String, Object>) out.get("statements");
        Map<String, Object> rebuild = (Map<String, Object>) out.get("rebuild");
        boolean clean = ((Number) statements.get("lost")).longValue() == 0
                && ((Number) statements.get("doubled")).longValue() == 0
                && ((Number) out.get("dead_lettered")).longValue() == 0
                && List.of().equals(out.get("checkpoints_inconsistent"))
                && ((Number) rebuild.get("exit")).intValue() == 0;
        System.out.println(clean ? "rehearse: the zeros hold" : "rehearse: FINDINGS, see " + file);
        return clean ? 0 : 1;
    }
}
