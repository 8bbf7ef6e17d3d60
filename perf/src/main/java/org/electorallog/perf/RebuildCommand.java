package org.electorallog.perf;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "rebuild",
        description = "Replay the whole events topic into an empty database with the projector's settings "
                + "(recovery by replay): events/s and total time; the database is dropped afterwards")
final class RebuildCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--keep", description = "keep the rebuilt database (perf_rebuild_<time>)")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            Map<String, Object> r = RebuildRun.rebuild(env, keep);
            dirs.write(
                    "rebuild-" + PerfCommand.label(PerfCommand.roundDown(((Number) r.get("events")).longValue())), r);
        }
        return 0;
    }
}
