package org.electorallog.perf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.core.NoteVerifier;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log verify-board}'s rate (issue 42 item 3): the largest perf board (or the one
 * named) verified whole through the query API over HTTP as an observer does it (every hash tile,
 * entry bundle and signature bundle fetched, every entry hashed and decoded, every signature
 * verified, the tree rebuilt), one run after the other on a warm API.
 */
@Command(
        name = "verify-board",
        description = "verify-board's rate: the largest perf board verified whole over HTTP, as an observer")
final class VerifyBoardCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--board", description = "the board (default: the largest perf-N board)")
    String board;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            String name = board != null ? board : env.largestBoard();
            TlogFiles files = TlogFiles.api(env.api().baseUrl(), name, PerfEnvironment.ADMIN_TOKEN);
            VerifyOptions options = new VerifyOptions(
                    List.of(NoteVerifier.parse(env.signer.verifierKey())), null, List.of(), 0, List.of());
            long t0 = System.nanoTime();
            Verification v = BoardVerifier.verify(
                    files,
                    options,
                    (done, total, seconds) -> System.err.printf(
                            "\rverify-board %s: %,d of %,d leaves, %,.0f a second", name, done, total, done / seconds));
            System.err.println();
            double wall = (System.nanoTime() - t0) / 1e9;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", name);
            r.put("source", "query API over HTTP on loopback, admin token (entry and signature bundles)");
            r.put("size", v.size());
            r.put("entries_hashed", v.entries());
            r.put("sender_signatures_verified", v.signed());
            r.put("entries_unsigned", v.unsigned());
            r.put("seconds", Latencies.round(wall));
            r.put("leaves_per_second", Math.round(v.leaves() / wall));
            r.put("verified", v.verified());
            r.put("problems", v.problems());
            r.putAll(env.describe());
            System.err.printf(
                    "verify-board %s: %,d leaves in %.1f s (%,.0f a second), %s%n",
                    name, v.leaves(), wall, v.leaves() / wall, v.verified() ? "verified" : v.problems());
            dirs.write("verify-board-" + name + "-" + PerfCommand.label(v.size()), r);
            return v.verified() ? 0 : 1;
        }
    }
}
