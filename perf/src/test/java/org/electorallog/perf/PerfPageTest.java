package org.electorallog.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/perf.md is what {@code perf report} makes of perf/baseline, and the baseline is one
 * sequence of files the report can read: a file of another format or another commit is refused.
 */
class PerfPageTest {
    private static final Path BASELINE = Path.of("baseline");
    private static final Path PAGE = Path.of("../docs/perf.md");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void theCommittedPageIsTheBaselinesReport() throws IOException {
        String page = ReportWriter.page(
                Baseline.read(BASELINE),
                National.read(Path.of("national")),
                "perf/baseline",
                Files.readString(BASELINE.resolve("notes.md")));
        assertEquals(
                page,
                Files.readString(PAGE),
                "docs/perf.md differs from the baseline's report: run ./electoral-log perf report");
        long lines = page.lines().count();
        assertTrue(lines >= 100 && lines <= 250, "the page has " + lines + " lines");
    }

    @Test
    void everyTargetHasOneRow() throws IOException {
        String page = ReportWriter.page(Baseline.read(BASELINE), null, "perf/baseline", "");
        String targets = page.substring(page.indexOf("## Targets"), page.indexOf("## Fill"));
        List<String> rows = targets.lines()
                .filter(l -> l.startsWith("| ") && !l.startsWith("| target"))
                .toList();
        assertEquals(11, rows.size(), targets);
        assertEquals(11, rows.stream().distinct().count(), targets);
    }

    @Test
    void aFileWithoutAFieldTheReportUsesIsRefusedByName() throws IOException {
        Path copy = copyOfBaseline();
        ObjectNode fill =
                (ObjectNode) JSON.readTree(copy.resolve("fill-5M.json").toFile());
        ((ObjectNode) fill.get("windows").get(0)).remove("ceiling_rows_per_second");
        JSON.writeValue(copy.resolve("fill-5M.json").toFile(), fill);
        IOException e = assertThrows(IOException.class, () -> Baseline.read(copy));
        assertTrue(e.getMessage().contains("fill-5M.json is not a Fill result"), e.getMessage());
    }

    @Test
    void aNationalFileWithoutAFieldThePageUsesIsRefusedByName() throws IOException {
        Path copy = Files.createDirectories(tmp.resolve("national"));
        for (String f : National.FILES) {
            Files.copy(Path.of("national").resolve(f), copy.resolve(f));
        }
        ObjectNode rounds =
                (ObjectNode) JSON.readTree(copy.resolve("witness-rounds.json").toFile());
        ((ObjectNode) rounds.get("runs").get(0)).remove("requests");
        JSON.writeValue(copy.resolve("witness-rounds.json").toFile(), rounds);
        IOException e = assertThrows(IOException.class, () -> National.read(copy));
        assertTrue(e.getMessage().contains("witness-rounds.json is not a WitnessRounds result"), e.getMessage());
    }

    @Test
    void aFileOfAnotherCommitIsRefused() throws IOException {
        Path copy = copyOfBaseline();
        ObjectNode probe =
                (ObjectNode) JSON.readTree(copy.resolve("probe-20M.json").toFile());
        ((ObjectNode) probe.get("machine")).put("commit", "0000000");
        JSON.writeValue(copy.resolve("probe-20M.json").toFile(), probe);
        IOException e = assertThrows(IOException.class, () -> Baseline.read(copy));
        assertTrue(e.getMessage().contains("probe-20M.json was measured at 0000000"), e.getMessage());
    }

    @Test
    void aRateJustUnderATargetIsNotMetThoughItRoundsToIt() throws IOException {
        Path copy = copyOfBaseline();
        ObjectNode fill =
                (ObjectNode) JSON.readTree(copy.resolve("fill-5M.json").toFile());
        fill.get("windows").forEach(w -> {
            double n = w.get("to").asDouble() - w.get("from").asDouble();
            ((ObjectNode) w).put("seconds", n / 13_960).put("ceiling_rows_per_second", 20_000);
        });
        JSON.writeValue(copy.resolve("fill-5M.json").toFile(), fill);
        String page = ReportWriter.page(Baseline.read(copy), null, "x", "");
        assertTrue(
                page.contains("| pipeline 1M -> 5M >= 70 % of the COPY ceiling measured in the same windows (17)"
                        + " | 69.8 % of 20,000 rows/s | **no** |"),
                page);
        assertTrue(page.contains("| pipeline 1M -> 5M >= 30,000 records/s (17) | 13,960 | **no** |"), page);
    }

    @Test
    void aCommandThatNeverEndedIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Baseline.Step.parse(List.of(
                        "07:32:11 start fill --target 5000000",
                        "07:35:35 end rc=0 fill --target 5000000",
                        "07:35:35 start probe --repeats 500")));
        assertTrue(e.getMessage().contains("probe --repeats 500"), e.getMessage());
        assertEquals(
                204,
                Baseline.Step.parse(List.of(
                                "07:32:11 start fill --target 5000000", "07:35:35 end rc=0 fill --target 5000000"))
                        .get(0)
                        .took()
                        .toSeconds());
    }

    private Path copyOfBaseline() throws IOException {
        try (Stream<Path> files = Files.list(BASELINE)) {
            for (Path f : files.toList()) {
                Files.copy(f, tmp.resolve(f.getFileName()));
            }
        }
        return tmp;
    }
}
