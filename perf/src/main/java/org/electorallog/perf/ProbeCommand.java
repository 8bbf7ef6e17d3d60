package org.electorallog.perf;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "probe", description = "Every row of the reference query table over HTTP, warm and cold, with plans")
final class ProbeCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

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
            description = "every request shape round-robin for this long before any timing; default ${DEFAULT-VALUE}")
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
                    env, repeats, cold, Duration.ofSeconds(warmUpSeconds), schedule, dirs.results.resolve("plans"));
            dirs.write("probe-" + PerfCommand.label(((Number) r.get("records")).longValue()), r);
        }
        return 0;
    }
}
