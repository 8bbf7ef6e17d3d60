package org.electorallog.perf;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "appends",
        description =
                "Publish-to-provable latency and throughput, single statements and batches, at several concurrencies")
final class AppendsCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

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
            dirs.write("appends-" + PerfCommand.label(PerfCommand.roundDown(env.total())) + "-wait" + batchWaitMs, r);
        }
        return 0;
    }
}
