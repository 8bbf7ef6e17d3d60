package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.export.ExportArchive;
import org.electorallog.export.ExportManifest;
import org.electorallog.verifier.ExportVerifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log verify-export DIR} (issue 63, {@link ExportVerifier}): an export checked
 * with no database against the checkpoint its manifest carries, then the counts it proves. Exit 0
 * verified, 1 with each problem, 2 on bad options or files that cannot be read.
 */
@Command(
        name = "verify-export",
        mixinStandardHelpOptions = true,
        description = "Verify an export (electoral-log export) against its signed checkpoint, then print the counts "
                + "it proves. Exit 0 verified, 1 problems, 2 failure.")
public final class VerifyExportCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            description = "the export's directory (manifest.json and its Parquet files), or the zip archive the "
                    + "query API's export.parquet sent")
    Path dir;

    @Option(names = "--log-key", required = true, description = "the log's verifier key (repeatable)")
    List<String> logKeys = new ArrayList<>();

    @Option(names = "--witness-key", description = "a witness's cosignature verifier key (repeatable)")
    List<String> witnessKeys = new ArrayList<>();

    @Option(names = "--quorum", defaultValue = "0", description = "witnesses that must have cosigned; default 0")
    int quorum;

    PrintStream stdout = System.out;
    PrintStream stderr = System.err;

    public VerifyExportCommand() {}

    /** A command writing to {@code out} and {@code err} (the demo's). */
    public VerifyExportCommand(PrintStream out, PrintStream err) {
        this.stdout = out;
        this.stderr = err;
    }

    @Override
    public Integer call() {
        ExportVerifier.Result r;
        try {
            List<NoteVerifier> keys = new ArrayList<>();
            logKeys.forEach(k -> keys.add(NoteVerifier.parse(k)));
            List<Cosigner.Verifier> witnesses = new ArrayList<>();
            witnessKeys.forEach(k -> witnesses.add(Cosigner.Verifier.parse(k)));
            if (quorum > witnesses.size()) {
                throw new IllegalArgumentException(
                        "--quorum " + quorum + " is more than the " + witnesses.size() + " witness key(s) given");
            }
            r = verify(keys, witnesses);
        } catch (IllegalArgumentException | IOException e) {
            stderr.println("verify-export: " + e.getMessage());
            return 2;
        }
        if (!r.verified()) {
            stdout.printf("NOT VERIFIED: %d problem(s)%n", r.problems().size());
            r.problems().forEach(p -> stdout.println("  " + p));
            return 1;
        }
        stdout.printf(
                "verified: records [%,d, %,d) of %s, %,d rows, are the log's at its checkpoint of size %,d%s "
                        + "(%.1f s, %,.0f records/s)%n",
                r.manifest().start(),
                r.manifest().end(),
                r.manifest().board(),
                r.rows(),
                r.manifest().size(),
                quorum > 0 ? ", cosigned by " + quorum + " or more of the witnesses given" : "",
                r.seconds(),
                r.rows() / Math.max(r.seconds(), 1e-9));
        stdout.println(
                r.whole()
                        ? "counts (proven: the whole board at that checkpoint):"
                        : "counts (proven for this range only, not the whole board):");
        if (ExportManifest.PERSONAL.equals(r.manifest().view())) {
            stdout.printf(
                    "personal view: %,d opened value(s) open their commitments in the leaves; it holds personal "
                            + "data: never publish it%n",
                    r.opened());
        }
        print("records by kind", r.counts().recordsByKind());
        print("cast votes by election", r.counts().castVotesByElection());
        print("cast votes by hour (UTC)", r.counts().castVotesByHour());
        return 0;
    }

    /** The export in {@code dir}, or in the archive {@code dir} names, unpacked under java.io.tmpdir and deleted after. */
    private ExportVerifier.Result verify(List<NoteVerifier> keys, List<Cosigner.Verifier> witnesses)
            throws IOException {
        if (!Files.isRegularFile(dir)) {
            return ExportVerifier.verify(dir, keys, witnesses, quorum);
        }
        Path unpacked = Files.createTempDirectory("verify-export-");
        try {
            return ExportVerifier.verify(
                    ExportArchive.extract(dir, unpacked.resolve("export")), keys, witnesses, quorum);
        } finally {
            ExportArchive.delete(unpacked.resolve("export"));
            Files.delete(unpacked);
        }
    }

    private void print(String title, Map<String, Long> counts) {
        stdout.println("  " + title + ":" + (counts.isEmpty() ? " none" : ""));
        new TreeMap<>(counts).forEach((k, v) -> stdout.printf("    %-28s %,d%n", k, v));
    }
}
