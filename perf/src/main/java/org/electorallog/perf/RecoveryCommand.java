package org.electorallog.perf;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "recovery",
        description = "Two projector processes; one killed (handover), then the other killed and restarted: "
                + "how long each board stays unprovable; lost = doubled = 0")
final class RecoveryCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(
            names = "--interval-ms",
            defaultValue = "20",
            description = "one vote per board every this many ms; default ${DEFAULT-VALUE}")
    int intervalMs;

    @Option(
            names = "--settle-seconds",
            defaultValue = "5",
            description = "steady publishing before each fault; default ${DEFAULT-VALUE}")
    int settleSeconds;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            Map<String, Object> r = RecoveryRun.run(env, intervalMs, settleSeconds);
            dirs.write("recovery-" + PerfCommand.label(PerfCommand.roundDown(env.total())), r);
            boolean clean = ((Map<?, ?>) r.get("statements"))
                    .values().stream()
                            .map(c -> (Map<?, ?>) c)
                            .allMatch(c -> ((Number) c.get("lost")).longValue() == 0
                                    && ((Number) c.get("doubled")).longValue() == 0);
            return clean ? 0 : 1;
        }
    }
}
