package org.electorallog.perf;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One measured sequence (perf/baseline, written by {@code perf/run-sequence.sh}): the files of each
 * {@code perf} command at one commit on one stack, read into types. A file that lacks a field the
 * report uses is refused with its name, so the page is never made from a file of another format.
 */
record Baseline(
        Run run,
        Fill fill5M,
        Fill fill20M,
        SignedFill signed,
        Probe probe5M,
        Probe probe20M,
        Burst burst,
        Storage storage,
        Rebuild rebuild,
        Audit audit,
        List<Step> steps) {

    /** The files of a sequence, by name; {@code steps.txt} gives each command's clock times. */
    static Baseline read(Path dir) throws IOException {
        Run run = read(dir, FILES.get(0), Run.class);
        for (String name : FILES) {
            String commit = read(dir, name, Run.class).machine().get("commit");
            if (!commit.equals(run.commit())) {
                throw new IOException(dir.resolve(name) + " was measured at " + commit + ", the rest of " + dir + " at "
                        + run.commit() + ": a baseline is one sequence at one commit");
            }
        }
        return new Baseline(
                run,
                read(dir, "fill-5M.json", Fill.class),
                read(dir, "fill-20M.json", Fill.class),
                read(dir, "fill-signed-500000.json", SignedFill.class),
                read(dir, "probe-5M.json", Probe.class),
                read(dir, "probe-20M.json", Probe.class),
                read(dir, "burst-20M-wait100-5000votes.json", Burst.class),
                read(dir, "storage-20M.json", Storage.class),
                read(dir, "rebuild-21M.json", Rebuild.class),
                read(dir, "audit-20M.json", Audit.class),
                Step.parse(Files.readAllLines(dir.resolve("steps.txt"))));
    }

    /** The result files of a sequence, in the order {@code perf/run-sequence.sh} writes them. */
    static final List<String> FILES = List.of(
            "fill-5M.json",
            "probe-5M.json",
            "fill-20M.json",
            "storage-20M.json",
            "probe-20M.json",
            "burst-20M-wait100-5000votes.json",
            "fill-signed-500000.json",
            "rebuild-21M.json",
            "audit-20M.json");

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES, true);

    static <T> T read(Path dir, String name, Class<T> type) throws IOException {
        Path file = dir.resolve(name);
        try {
            return JSON.readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new IOException(file + " is not a " + type.getSimpleName() + " result: " + e.getMessage(), e);
        }
    }

    /** Where and with what a result was measured (every file carries it). */
    record Run(
            Map<String, String> machine,
            Map<String, String> versions,
            Map<String, String> postgresqlSettings,
            Map<String, String> hugePages) {
        Run {
            Objects.requireNonNull(machine.get("commit"), "machine.commit");
        }

        String commit() {
            return machine.get("commit");
        }
    }

    record Window(
            long from,
            long to,
            double seconds,
            double recordsPerSecond,
            double ceilingRowsPerSecond,
            double ratioToCeiling,
            int projectorBatches,
            double projectorRecordsPerBatch) {}

    record Sample(double seconds, long records, double recordsPerSecond) {}

    record Fill(
            boolean signed,
            long recordsBefore,
            long recordsAfter,
            long published,
            double seconds,
            double recordsPerSecond,
            List<Window> windows,
            List<Sample> samples) {}

    /** A fill of signed statements on a board of its own (no ceiling is measured for it). */
    record SignedFill(boolean signed, long published, double seconds, double recordsPerSecond) {
        SignedFill {
            if (!signed) {
                throw new IllegalArgumentException("the signed fill's file says it was not signed");
            }
        }
    }

    record Warm(
            int n,
            double medianMs,
            double p95Ms,
            double p99Ms,
            @JsonProperty("p99_9_ms") double p999Ms) {}

    record ProbeRow(String name, String reference, String request, double coldMs, Warm warm) {}

    record Probe(long records, int repeats, String schedule, String client, List<ProbeRow> rows) {
        ProbeRow row(String name) {
            return rows.stream()
                    .filter(r -> r.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("the probe has no row '" + name + "'"));
        }

        ProbeRow slowestAtP95() {
            return rows.stream()
                    .max((a, b) -> Double.compare(a.warm().p95Ms(), b.warm().p95Ms()))
                    .orElseThrow();
        }
    }

    record Latency(int n, double medianMs, double p95Ms, double p99Ms, double maxMs) {}

    record Burst(
            int voters,
            double publishedWithinMs,
            double drainMs,
            Latency publishToProvable,
            List<Double> latenciesMs,
            long lost,
            long doubled,
            long recordsAllBoards) {}

    record StorageFigures(
            long records,
            long totalBytes,
            double bytesPerRecord,
            Map<String, Long> relations,
            Map<String, Long> recordsParts) {}

    record Storage(StorageFigures storage) {}

    record Rebuild(long events, double seconds, double eventsPerSecond, double bytesPerRecord) {}

    record AuditRun(long records, double seconds, double recordsPerSecond, String verdict) {}

    record Audit(AuditRun first, AuditRun warm) {}

    /** One command of the sequence and how long it took, from {@code steps.txt}'s start and end lines. */
    record Step(String command, Duration took) {
        static List<Step> parse(List<String> lines) {
            Map<String, LocalTime> started = new LinkedHashMap<>();
            List<Step> steps = new ArrayList<>();
            for (String line : lines) {
                String[] p = line.split(" ", 3);
                if (p.length < 3) {
                    continue;
                }
                LocalTime t = LocalTime.parse(p[0]);
                if (p[1].equals("start")) {
                    started.put(p[2], t);
                } else if (p[1].equals("end") && p[2].startsWith("rc=0 ")) {
                    String command = p[2].substring("rc=0 ".length());
                    LocalTime s = started.remove(command);
                    if (s == null) {
                        throw new IllegalArgumentException("steps.txt ends '" + command + "' without starting it");
                    }
                    Duration d = Duration.between(s, t);
                    steps.add(new Step(command, d.isNegative() ? d.plusDays(1) : d));
                } else if (p[1].equals("end")) {
                    throw new IllegalArgumentException("steps.txt: a command failed: " + line);
                }
            }
            if (!started.isEmpty()) {
                throw new IllegalArgumentException("steps.txt: started and never ended: " + started.keySet());
            }
            return steps;
        }
    }
}
