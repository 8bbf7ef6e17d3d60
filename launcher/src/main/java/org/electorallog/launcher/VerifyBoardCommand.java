package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.TlogPolicy;
import org.electorallog.report.BoardReport;
import org.electorallog.report.VerifiedBoard;
import org.electorallog.verifier.BoardObservations;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.RegistryExport;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log verify-board}: a whole board checked from the outside (issue 42 item 3,
 * {@link BoardVerifier}), from a query API or a directory in the C2SP tlog-tiles layout, with a
 * progress line (rate and ETA): signatures, quorum, every entry and tile, the root, the statement
 * signatures (sender registry export and system keys when given), the seal and a continuation
 * link. Exit 0 when everything verified, 1 with each problem, 2 on bad
 * options or a source that cannot be read.
 */
@Command(
        name = "verify-board",
        mixinStandardHelpOptions = true,
        description = "Verify a whole board from outside: signatures, quorum, every entry and tile, the root.")
public final class VerifyBoardCommand implements Callable<Integer> {
    @Option(names = "--url", description = "a query API of the log (with --board)")
    String url;

    @Option(names = "--board", description = "the board (with --url; with --dir, the board its entries must be of)")
    String board;

    @Option(names = "--token", description = "a bearer token (an observer's reads the entries)")
    String token;

    @Option(names = "--dir", description = "a directory in the C2SP tlog-tiles layout (checkpoint, tile/...)")
    Path dir;

    @Option(
            names = "--tiles-url",
            description = "a board published as static files (publish-tiles behind a web server): its URL prefix, "
                    + "e.g. https://tiles.example/<board>")
    String tilesUrl;

    @Option(
            names = "--mirror",
            description = "a mirror (C2SP tlog-mirror, `electoral-log mirror`) that holds the board: its URL, with "
                    + "--origin; its copy at <URL>/<hex SHA-256 of the origin> is verified whole")
    String mirror;

    @Option(names = "--log-key", description = "the log's verifier key (repeatable)")
    List<String> logKeys = new ArrayList<>();

    @Option(
            names = "--policy",
            description =
                    "a C2SP tlog-policy file: the logs, the witnesses and the quorum (groups, nested), instead of "
                            + "--log-key, --witness-key and --quorum")
    Path policy;

    @Option(names = "--origin", description = "the checkpoint origin expected")
    String origin;

    @Option(names = "--witness-key", description = "a witness's cosignature verifier key (repeatable)")
    List<String> witnessKeys = new ArrayList<>();

    @Option(names = "--quorum", defaultValue = "0", description = "witnesses that must have cosigned; default 0")
    int quorum;

    @Option(names = "--older", description = "a file with an older signed checkpoint of the board (repeatable)")
    List<Path> older = new ArrayList<>();

    @Option(
            names = "--previous",
            description = "with --dir: the directory of the board a LOG_CONTINUATION names (from --url it is read "
                    + "from the same API)")
    Path previous;

    @Option(
            names = "--senders",
            description = "the sender registry (electoral-log senders export): every record must be signed by a key "
                    + "a grant allowed its kind and board at its time")
    Path senders;

    @Option(
            names = "--system-key",
            description = "a voting system public key, base64 (repeatable): system signatures must verify with one")
    List<String> systemKeys = new ArrayList<>();

    @Option(
            names = "--report",
            paramLabel = "FILE.html",
            description = "also write the verification as one self-contained HTML page: the board and its keys, "
                    + "every check with its counts, records per hour by kind, checkpoints and cosignatures over time, "
                    + "the seal and the command that repeats it (docs/witnesses.md, The report)")
    Path report;

    private final PrintStream out;
    private final PrintStream err;

    public VerifyBoardCommand() {
        this(System.out, System.err);
    }

    /** Writing its results to {@code out} and its progress and errors to {@code err}. */
    public VerifyBoardCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        TlogFiles files;
        VerifyOptions options;
        try {
            int sources = (url != null ? 1 : 0)
                    + (dir != null ? 1 : 0)
                    + (tilesUrl != null ? 1 : 0)
                    + (mirror != null ? 1 : 0);
            if (sources != 1 || (url != null && board == null)) {
                throw new IllegalArgumentException(
                        "give --url with --board, or --dir, or --tiles-url, or --mirror with --origin");
            }
            if (mirror != null && origin == null) {
                throw new IllegalArgumentException(
                        "--mirror needs --origin: a mirror serves each log's copy under its origin's hash");
            }
            if (previous != null && dir == null) {
                throw new IllegalArgumentException(
                        "--previous goes with --dir (an API serves the previous board itself)");
            }
            files = url != null
                    ? TlogFiles.api(url, board, token)
                    : dir != null
                            ? TlogFiles.directory(dir)
                            : TlogFiles.url(tilesUrl != null ? tilesUrl : mirrorCopy());
            List<NoteVerifier> keys = new ArrayList<>();
            logKeys.forEach(k -> keys.add(NoteVerifier.parse(k)));
            List<Cosigner.Verifier> witnesses = new ArrayList<>();
            witnessKeys.forEach(k -> witnesses.add(Cosigner.Verifier.parse(k)));
            List<String> notes = new ArrayList<>();
            for (Path p : older) {
                notes.add(Files.readString(p));
            }
            List<byte[]> system = new ArrayList<>();
            systemKeys.forEach(k -> system.add(Base64.getDecoder().decode(k.trim())));
            Function<String, TlogFiles> boards = url != null
                    ? name -> TlogFiles.api(url, name, token)
                    : previous == null ? null : name -> TlogFiles.directory(previous);
            RegistryExport registry = senders == null ? null : RegistryExport.read(senders);
            if (policy != null) {
                if (!logKeys.isEmpty() || !witnessKeys.isEmpty() || quorum != 0) {
                    throw new IllegalArgumentException("--policy names the logs, witnesses and quorum: give it without "
                            + "--log-key, --witness-key, --quorum");
                }
                options = VerifyOptions.of(
                        TlogPolicy.parse(Files.readString(policy)), origin, notes, board, system, registry, boards);
            } else {
                if (keys.isEmpty()) {
                    throw new IllegalArgumentException(
                            "give the log's verifier key (--log-key), or a --policy naming it");
                }
                options = new VerifyOptions(keys, origin, witnesses, quorum, notes, board, system, registry, boards);
            }
        } catch (IllegalArgumentException | IOException e) {
            err.println("verify-board: " + e.getMessage());
            return 2;
        }
        Verification r;
        BoardObservations seen = report == null ? null : new BoardObservations();
        Instant started = Instant.now();
        try {
            r = BoardVerifier.verify(
                    files,
                    options,
                    (done, total, seconds) -> {
                        double rate = done / Math.max(seconds, 1e-9);
                        err.printf(
                                "\rverify-board: %,d of %,d leaves, %,.0f a second, ETA %.0f s",
                                done, total, rate, rate > 0 ? (total - done) / rate : 0.0);
                    },
                    seen);
        } catch (IOException e) {
            err.println("\nverify-board: cannot read the board: " + e.getMessage());
            return 2;
        }
        err.println();
        if (report != null) {
            try {
                BoardReport.write(
                        new VerifiedBoard(
                                board,
                                source(),
                                options.logKeys().stream()
                                        .map(NoteVerifier::verifierKey)
                                        .toList(),
                                options.witnesses().stream()
                                        .map(Cosigner.Verifier::verifierKey)
                                        .toList(),
                                options.rule().rule(),
                                options.older().size(),
                                options.registry() != null,
                                options.systemKeys().size(),
                                command(),
                                started,
                                r,
                                seen),
                        report);
            } catch (IOException e) {
                err.println("verify-board: cannot write the report " + report + ": " + e.getMessage());
                return 2;
            }
        }
        if (r.verified()) {
            out.printf(
                    "verified: %,d leaves (%,d entries hashed), root %s, in %.1f s%n",
                    r.leaves(), r.entries(), r.root(), r.seconds());
            out.println(
                    r.signed() < 0
                            ? mirror != null
                                    ? "statement signatures: not read (a mirror's copy holds the entries, not this "
                                            + "log's signature bundles)"
                                    : "statement signatures: not read (the entries' signature bundles need an "
                                            + "observer's token)"
                            : String.format(
                                    "statement signatures: %,d verified, %,d entries without one%s",
                                    r.signed(),
                                    r.unsigned(),
                                    senders == null ? "" : "; every sender allowed by the registry"));
            if (r.witnessedSize() >= 0) {
                out.printf(
                        "witnessed: the quorum vouches for the board up to size %,d%s%n",
                        r.witnessedSize(),
                        r.witnessedSize() == r.size() ? "" : " (its later records await a witnessed heads checkpoint)");
            }
            if (r.sealedSize() >= 0) {
                out.printf("sealed at size %,d: the seal is the board's last record%n", r.sealedSize());
            }
            if (r.continues() != null) {
                out.printf("continues board %s: the link verified against that board, verified whole%n", r.continues());
            }
            printReport();
            return 0;
        }
        r.problems().forEach(p -> out.println("problem: " + p));
        out.printf("NOT verified: %d problem(s)%n", r.problems().size());
        printReport();
        return 1;
    }

    /** The report's path, last, when one was written. */
    private void printReport() {
        if (report != null) {
            out.println("report: " + report.toAbsolutePath());
        }
    }

    /** Where the board was read, as the report says it. */
    private String source() {
        if (url != null) {
            return "the query API at " + url;
        }
        if (mirror != null) {
            return "the mirror's copy at " + mirrorCopy();
        }
        return dir != null ? "the directory " + dir.toAbsolutePath() : "the static publication at " + tilesUrl;
    }

    /** The URL of the board's copy on {@code --mirror} (C2SP tlog-mirror: {@code <monitoring prefix>/<origin hash>}). */
    private String mirrorCopy() {
        String prefix = mirror.endsWith("/") ? mirror.substring(0, mirror.length() - 1) : mirror;
        return prefix + "/" + Hex.encode(Hashes.sha256(origin.getBytes(StandardCharsets.UTF_8)));
    }

    /** The command line that repeats this verification; a token stays a variable, never written out. */
    String command() {
        List<String> a = new ArrayList<>(List.of("electoral-log", "verify-board"));
        if (url != null) {
            a.addAll(List.of("--url", url));
        }
        if (board != null) {
            a.addAll(List.of("--board", board));
        }
        if (token != null) {
            a.addAll(List.of("--token", "\"$ELECTORAL_LOG_TOKEN\""));
        }
        if (dir != null) {
            a.addAll(List.of("--dir", dir.toString()));
        }
        if (tilesUrl != null) {
            a.addAll(List.of("--tiles-url", tilesUrl));
        }
        if (mirror != null) {
            a.addAll(List.of("--mirror", mirror));
        }
        if (policy != null) {
            a.addAll(List.of("--policy", policy.toString()));
        }
        logKeys.forEach(k -> a.addAll(List.of("--log-key", k)));
        witnessKeys.forEach(k -> a.addAll(List.of("--witness-key", k)));
        if (quorum != 0) {
            a.addAll(List.of("--quorum", Integer.toString(quorum)));
        }
        if (origin != null) {
            a.addAll(List.of("--origin", origin));
        }
        older.forEach(p -> a.addAll(List.of("--older", p.toString())));
        if (previous != null) {
            a.addAll(List.of("--previous", previous.toString()));
        }
        if (senders != null) {
            a.addAll(List.of("--senders", senders.toString()));
        }
        systemKeys.forEach(k -> a.addAll(List.of("--system-key", k)));
        return String.join(" ", a.stream().map(VerifyBoardCommand::quoted).toList());
    }

    /** A word as a POSIX shell reads it back: single-quoted unless plain (a variable stays as given). */
    static String quoted(String word) {
        if (word.matches("[A-Za-z0-9_@%+=:,./-]+") || word.startsWith("\"$")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
