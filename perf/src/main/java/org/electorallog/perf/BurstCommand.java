package org.electorallog.perf;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "burst", description = "N cast votes on one board within one second: drain time, percentiles, lost = 0")
final class BurstCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

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
            Map<String, Object> r = BurstRun.burst(env, voters, batchWaitMs, warmUpVotes, restartProjector);
            dirs.write(
                    "burst-" + PerfCommand.label(PerfCommand.roundDown(env.total())) + "-wait" + batchWaitMs
                            + (voters == 500 ? "" : "-" + voters + "votes")
                            + (warmUpVotes == 0 ? "" : "-warm" + warmUpVotes)
                            + (restartProjector ? "-restarted" : ""),
                    r);
            return ((Number) r.get("lost")).longValue() == 0 && ((Number) r.get("doubled")).longValue() == 0 ? 0 : 1;
        }
    }
}
