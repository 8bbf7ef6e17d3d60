package org.electorallog.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The national-scale figures of issue 45 item 4 (perf/national, each file copied there from a
 * command's results under a fixed name; each names its own commit): witness requests a round, record
 * proofs and full tiles through the API against nginx, and a 20M fill with PostgreSQL's memory held
 * to a 50M board's share. Read into types like {@link Baseline}: a file that lacks a field the page
 * uses is refused by name.
 */
record National(
        WitnessRounds witnessRounds, Loads proofs, Loads tiles, Baseline.Fill heldFill, Held held, String heldCommit) {

    static final List<String> FILES = List.of("witness-rounds.json", "proofs.json", "tiles.json", "fill-20M-held.json");

    static National read(Path dir) throws IOException {
        return new National(
                Baseline.read(dir, FILES.get(0), WitnessRounds.class),
                Baseline.read(dir, FILES.get(1), Loads.class),
                Baseline.read(dir, FILES.get(2), Loads.class),
                Baseline.read(dir, FILES.get(3), Baseline.Fill.class),
                Baseline.read(dir, FILES.get(3), Held.class),
                Baseline.read(dir, FILES.get(3), Baseline.Run.class).commit());
    }

    /** One measured witness round: the mode, the boards that changed, the requests the witness answered, its time. */
    record Round(String mode, int boards, int round, long requests, double roundSeconds) {}

    record WitnessRounds(List<Round> runs, Map<String, String> machine) {
        String commit() {
            return machine.get("commit");
        }
    }

    /** One load run: API or nginx, at a number of connections. */
    record LoadRun(String target, int connections, double perSecond, double p50Ms, double p99Ms, long errors) {}

    record Loads(String board, long boardSize, List<LoadRun> runs, Map<String, String> machine) {
        String commit() {
            return machine.get("commit");
        }

        LoadRun at(String target, int connections) {
            return runs.stream()
                    .filter(r -> r.target().equals(target) && r.connections() == connections)
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no " + target + " run at " + connections));
        }
    }

    /** What the held fill held and what /proc/meminfo said when it started. */
    record Held(int memoryHeldGb, Map<String, Double> memoryGbAtStart) {}
}
