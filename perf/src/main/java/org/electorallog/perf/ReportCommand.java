package org.electorallog.perf;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "report", description = "docs/perf.md and its charts from one measured sequence (perf/run-sequence.sh)")
final class ReportCommand implements Callable<Integer> {
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
