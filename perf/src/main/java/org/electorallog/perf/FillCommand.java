package org.electorallog.perf;

import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Setting;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "fill",
        description =
                "Fill boards through producer, Kafka and projector to --target records (resumes), and measure the COPY ceiling")
final class FillCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--target", required = true, description = "records on the perf boards when done")
    long target;

    @Option(
            names = "--boards",
            defaultValue = "1",
            description = "boards to spread them over; default ${DEFAULT-VALUE}")
    int boards;

    @Option(
            names = "--signed",
            description = "sign every statement (sender Ed25519) on boards perf-signed-N, which the projector verifies")
    boolean signed;

    @Option(
            names = "--committed",
            description = "publish every statement in the committed form (docs/personal-data.md) on boards "
                    + "perf-committed-N, whose openings the projector decrypts, checks and stores; with --signed, "
                    + "signed too, on boards perf-signed-committed-N")
    boolean committed;

    @Option(
            names = "--ceiling-every",
            defaultValue = "1000000",
            description = "records per fill window; the COPY ceiling is measured at every window's edge "
                    + "(0: no ceiling); default ${DEFAULT-VALUE}")
    long ceilingEvery;

    @Option(
            names = "--ceiling-rows",
            defaultValue = "50000",
            description = "rows a COPY ceiling window writes (and rolls back); default ${DEFAULT-VALUE}")
    int ceilingRows;

    @Option(
            names = "--batch-records",
            description = "events a projector batch (one PostgreSQL transaction) holds at most; "
                    + "default ${DEFAULT-VALUE}, the projector's own default")
    int batchRecords = (int) Setting.BATCH_MAX_RECORDS.defaultNumber();

    @Option(
            names = "--hold-memory-gb",
            defaultValue = "0",
            description = "gigabytes a child process holds away from PostgreSQL's page cache for the whole fill "
                    + "(MemoryHold; docs/perf.md says how much stands for a 50M-record board); default none")
    int holdMemoryGb;

    @Override
    public Integer call() throws Exception {
        if (holdMemoryGb > 0) {
            try (MemoryHold hold = MemoryHold.start(holdMemoryGb, dirs.work)) {
                return fill(MemoryHold.meminfo());
            }
        }
        return fill(null);
    }

    private int fill(Map<String, Double> heldMemory) throws Exception {
        FillForm form = signed && committed
                ? FillForm.SIGNED_COMMITTED
                : signed ? FillForm.SIGNED : committed ? FillForm.COMMITTED : FillForm.PLAIN;
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            env.batchRecords(batchRecords);
            Map<String, Object> r = FillRun.run(env, target, boards, form, ceilingEvery, ceilingRows);
            if (heldMemory != null) {
                r.put("memory_held_gb", holdMemoryGb);
                r.put("memory_gb_at_start", heldMemory);
                r.put("memory_gb_at_end", MemoryHold.meminfo());
            }
            if (r.containsKey("published")) {
                dirs.write(
                        form.filePrefix
                                + PerfCommand.label(target)
                                + (heldMemory == null ? "" : "-held-" + holdMemoryGb + "g"),
                        r);
            } else {
                // nothing was measured: keep the result of the fill that got there
                System.out.println("fill: " + r.get("note"));
            }
        }
        return 0;
    }
}
