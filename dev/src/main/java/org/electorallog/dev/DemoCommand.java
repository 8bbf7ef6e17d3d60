package org.electorallog.dev;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TlogProof;
import org.electorallog.infra.ExitOrder;
import org.electorallog.launcher.ExportCommand;
import org.electorallog.launcher.MirrorCommand;
import org.electorallog.launcher.VerifyBoardCommand;
import org.electorallog.launcher.VerifyExportCommand;
import org.electorallog.mirror.MirrorServer;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import org.electorallog.witness.FollowedLogs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code electoral-log demo}: the whole flow once, verified, then a clean stop. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Start the embedded stack, projector and query API; publish a small election on 2 boards; "
                + "verify checkpoints and inclusion proofs over HTTP; print a summary; stop.")
public final class DemoCommand implements Callable<Integer> {
    @Option(
            names = "--voters",
            defaultValue = "1000",
            description = "voters per board (each: 4 logins, 1 vote); default ${DEFAULT-VALUE}")
    int voters;

    @Option(
            names = "--proofs",
            defaultValue = "50",
            description = "inclusion proofs verified per board; default ${DEFAULT-VALUE}")
    int proofs;

    @Option(
            names = "--work-dir",
            defaultValue = "target/run",
            description = "where embedded data goes; default ${DEFAULT-VALUE}")
    Path workDir;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "seconds to wait for the projection; default ${DEFAULT-VALUE}")
    int timeoutSeconds;

    @Override
    public Integer call() {
        if (voters < 1 || proofs < 2) {
            System.err.println("demo: --voters must be at least 1 and --proofs at least 2");
            return 2;
        }
        long t0 = System.nanoTime();
        System.out.println("starting the stack, projector and query API ...");
        try (DevEnvironment env = DevEnvironment.start(workDir, 0, null)) {
            System.out.println("stack: " + env.stack().describe());
            System.out.println("log verifier key (throwaway, generated for this run): "
                    + env.signer().verifierKey());
            List<ElectionDemo.BoardResult> results = new ElectionDemo(env, System.out)
                    .run(
                            List.of("demo-election-1", "demo-election-2"),
                            voters,
                            proofs,
                            Duration.ofSeconds(timeoutSeconds));
            System.out.println();
            System.out.println("summary");
            long total = 0;
            int verified = 0;
            for (ElectionDemo.BoardResult r : results) {
                System.out.printf(
                        "  board %-18s records %,8d  root %s  proofs verified %d%n",
                        r.board(), r.records(), r.rootBase64(), r.proofsVerified());
                total += r.records();
                verified += r.proofsVerified();
            }
            TlogProof.Verified witnessed = witnessedBundle(env, results.get(0).board(), Duration.ofSeconds(30));
            System.out.printf(
                    "  record 0 of %s: its tlog-proof bundle verifies offline at size %,d, cosigned by %s (quorum 1)%n",
                    results.get(0).board(), witnessed.checkpoint().size(), String.join(", ", witnessed.cosigners()));
            String sealed = results.get(0).board();
            awaitWitnessedClose(env, sealed, results.get(0).records(), Duration.ofSeconds(30));
            Verification whole = BoardVerifier.verify(
                    // without a token: the committed form's entries are anyone's (issue 46)
                    TlogFiles.api(env.api().baseUrl(), sealed, null),
                    new VerifyOptions(
                            List.of(NoteVerifier.parse(env.signer().verifierKey())),
                            Setting.ORIGIN_PREFIX.defaultValue + sealed,
                            List.of(Cosigner.Verifier.parse(env.witness().verifierKey())),
                            1,
                            List.of()),
                    (leaves, of, seconds) -> {});
            if (!whole.verified()
                    || whole.sealedSize() != results.get(0).records()
                    || whole.entries() != results.get(0).records()) {
                throw new ProofException("verify-board refused the sealed board " + sealed + " (sealed at "
                        + whole.sealedSize() + ", " + whole.entries() + " entries read without a token): "
                        + whole.problems());
            }
            System.out.printf(
                    "  verify-board, without a token: %s verified whole after its seal: %,d entries hashed, every tile "
                            + "rebuilt, root %s,"
                            + " sealed at %,d by its last record; statement signatures: %,d verified, %,d unsigned%n",
                    sealed, whole.entries(), whole.root(), whole.sealedSize(), whole.signed(), whole.unsigned());
            exportAndVerify(env, sealed);
            report(env, sealed);
            mirror(env, sealed);
            System.out.printf(
                    "  %,d records on %d boards, %d inclusion proofs verified against signed checkpoints, %.1f s%n",
                    total, results.size(), verified, (System.nanoTime() - t0) / 1e9);
            System.out.println("demo: OK");
            return 0;
        } catch (Exception e) {
            if (ExitOrder.exiting()) {
                // SIGTERM or Ctrl-C: the environment is being closed under the demo
                System.err.println("demo: stopped by a signal before it finished");
                return 130;
            }
            System.err.println("demo: FAILED: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            e.printStackTrace(System.err);
            return 1;
        }
    }

    /**
     * Issue 63: the sealed board exported at its witnessed checkpoint as Parquet files with their
     * manifest, then verified from the files alone; both commands printed as an analyst runs them.
     */
    private void exportAndVerify(DevEnvironment env, String board) throws IOException, ProofException {
        Path dir = workDir.resolve("export-" + board);
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        DatabaseLogin db = env.stack().database();
        Map<String, String> conf = Map.of(
                "ELECTORAL_LOG_JDBC_URL", db.jdbcUrl(),
                "ELECTORAL_LOG_DB_USER", db.user(),
                "ELECTORAL_LOG_DB_PASSWORD", db.password());
        String[] export = {"--board", board, "--format", "parquet", "--out", dir.toString()};
        System.out.println("  export: electoral-log export " + String.join(" ", export));
        if (new CommandLine(new ExportCommand(conf, indented(), System.err)).execute(export) != 0) {
            throw new ProofException("export of " + board + " failed");
        }
        String[] verify = {
            dir.toString(),
            "--log-key",
            env.signer().verifierKey(),
            "--witness-key",
            env.witness().verifierKey(),
            "--quorum",
            "1"
        };
        System.out.println("  verify-export: electoral-log verify-export " + dir + " --log-key '"
                + env.signer().verifierKey() + "' --witness-key '"
                + env.witness().verifierKey() + "' --quorum 1");
        if (new CommandLine(new VerifyExportCommand(indented(), System.err)).execute(verify) != 0) {
            throw new ProofException("verify-export refused the export of " + board);
        }
    }

    /**
     * Issue 69 item 4 and issue 68: verify-board run on the sealed board as an observer runs it, with a
     * C2SP tlog-policy file naming the log's and the witness's keys of both kinds and a quorum that
     * needs the witness's ML-DSA-44 cosignature as well as its Ed25519 one, writing its report (one
     * HTML page that opens offline) into the work directory; the command prints its path.
     */
    private void report(DevEnvironment env, String board) throws IOException, ProofException {
        Path policy = workDir.resolve("policy-" + board).toAbsolutePath();
        List<String> witnessKeys = env.witness().verifierKeys();
        StringBuilder text = new StringBuilder(
                "# the demo's trust policy (C2SP tlog-policy): the log's keys, the witness's, both kinds required\n");
        env.signer().verifierKeys().forEach(k -> text.append("log ").append(k).append('\n'));
        List<String> names = new ArrayList<>();
        for (String k : witnessKeys) {
            String name = Cosigner.Verifier.parse(k).postQuantum() ? "local-ml-dsa-44" : "local-ed25519";
            names.add(name);
            text.append("witness ").append(name).append(' ').append(k).append('\n');
        }
        text.append("group both-kinds all ").append(String.join(" ", names)).append('\n');
        text.append("quorum both-kinds\n");
        Files.writeString(policy, text.toString(), StandardCharsets.UTF_8);
        postQuantum(env, board, witnessKeys);
        Path file = workDir.resolve("report-" + board + ".html").toAbsolutePath();
        String[] args = {
            "--url", env.api().baseUrl(),
            "--board", board,
            "--policy", policy.toString(),
            "--report", file.toString()
        };
        System.out.println("  report: electoral-log verify-board --url "
                + env.api().baseUrl() + " --board " + board + " --policy " + policy + " --report " + file);
        if (new CommandLine(new VerifyBoardCommand(indented(), System.err)).execute(args) != 0) {
            throw new ProofException("verify-board --report refused the sealed board " + board);
        }
    }

    /**
     * Issue 68 item 4: a mirror (C2SP tlog-mirror) an observer runs, with keys of both kinds, fed the
     * sealed board by {@code mirror push} from the query API (every package checked against the
     * checkpoint before it is stored), then verify-board on the mirror's URL alone with a tlog-policy
     * whose quorum is the mirror's two cosignatures: the whole board from the observer's own copy.
     */
    private void mirror(DevEnvironment env, String board) throws IOException, ProofException {
        Path state = workDir.resolve("mirror-state");
        if (Files.exists(state)) {
            try (Stream<Path> old = Files.walk(state)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        List<Cosigner.Key> keys = List.of(
                Cosigner.Key.generate("mirror.demo.example/m1"),
                Cosigner.Key.generateMlDsa44("mirror.demo.example/m1"));
        String origin = Setting.ORIGIN_PREFIX.defaultValue + board;
        List<String> followed = env.signer().verifierKeys().stream()
                .map(k -> Setting.ORIGIN_PREFIX.defaultValue + "* " + k)
                .toList();
        try (MirrorServer mirror = MirrorServer.start(
                "127.0.0.1", 0, keys, FollowedLogs.parse(followed), state, true, Duration.ofSeconds(30), 8)) {
            String url = "http://127.0.0.1:" + mirror.port();
            System.out.println("  mirror: electoral-log mirror --key <its key> --post-quantum-key <its ML-DSA-44 key> "
                    + "--log '" + followed.get(0) + "' --state " + state + " (listening on " + url + ")");
            String[] push = {"--mirror", url, "--url", env.api().baseUrl(), "--board", board};
            System.out.println("  mirror push: electoral-log mirror push " + String.join(" ", push));
            if (new CommandLine(new MirrorCommand.Push(indented(), System.err)).execute(push) != 0) {
                throw new ProofException("mirror push of " + board + " failed");
            }
            Path policy = workDir.resolve("policy-mirror-" + board).toAbsolutePath();
            StringBuilder text = new StringBuilder(
                    "# the demo's mirror policy (C2SP tlog-policy): the log's keys; the quorum is the mirror's "
                            + "cosignatures of both kinds, its word that it holds the board whole\n");
            env.signer()
                    .verifierKeys()
                    .forEach(k -> text.append("log ").append(k).append('\n'));
            text.append("witness mirror-ed25519 ")
                    .append(keys.get(0).verifierKey())
                    .append(' ')
                    .append(url)
                    .append('\n');
            text.append("witness mirror-ml-dsa-44 ")
                    .append(keys.get(1).verifierKey())
                    .append(' ')
                    .append(url)
                    .append('\n');
            text.append("group mirror all mirror-ed25519 mirror-ml-dsa-44\nquorum mirror\n");
            Files.writeString(policy, text.toString(), StandardCharsets.UTF_8);
            String[] verify = {"--mirror", url, "--origin", origin, "--policy", policy.toString()};
            System.out.println(
                    "  verify-board from the mirror: electoral-log verify-board " + String.join(" ", verify));
            if (new CommandLine(new VerifyBoardCommand(indented(), System.err)).execute(verify) != 0) {
                throw new ProofException("verify-board refused the mirror's copy of " + board);
            }
        }
    }

    /**
     * Issue 68: the sealed board's witnessed checkpoint carries the log's ML-DSA-44 signature and the
     * witness's ML-DSA-44 cosignature (C2SP tlog-cosignature subtree/v1), each checked with no
     * Ed25519 key at all.
     */
    private static void postQuantum(DevEnvironment env, String board, List<String> witnessKeys)
            throws IOException, ProofException {
        NoteVerifier logKey = env.signer().verifierKeys().stream()
                .map(NoteVerifier::parse)
                .filter(NoteVerifier::postQuantum)
                .findFirst()
                .orElseThrow(() -> new ProofException("the demo's log has no ML-DSA-44 key"));
        Cosigner.Verifier witnessKey = witnessKeys.stream()
                .map(Cosigner.Verifier::parse)
                .filter(Cosigner.Verifier::postQuantum)
                .findFirst()
                .orElseThrow(() -> new ProofException("the demo's witness has no ML-DSA-44 key"));
        String note = new LogClient(env.api().baseUrl())
                .send("/boards/" + board + "/checkpoint?witnessed=true")
                .body();
        Checkpoint cp = Checkpoint.open(note, List.of(logKey));
        witnessKey.verify(SignedNote.parse(note));
        System.out.printf(
                "  post-quantum: %s's sealed checkpoint at %,d (%,d bytes) verifies with the log's ML-DSA-44 key "
                        + "and the witness's ML-DSA-44 cosignature alone (C2SP tlog-cosignature subtree/v1)%n",
                board, cp.size(), note.getBytes(StandardCharsets.UTF_8).length);
    }

    /** Standard output with each line indented under the summary's. */
    private static PrintStream indented() {
        return new PrintStream(
                new FilterOutputStream(System.out) {
                    private boolean lineStart = true;

                    @Override
                    public void write(int b) throws IOException {
                        if (lineStart) {
                            out.write(' ');
                            out.write(' ');
                            out.write(' ');
                            out.write(' ');
                        }
                        out.write(b);
                        lineStart = b == '\n';
                    }
                },
                true,
                StandardCharsets.UTF_8);
    }

    /** Waits (polling) until the witness cosigned the board's checkpoint at its sealed size: the witnessed close. */
    static void awaitWitnessedClose(DevEnvironment env, String board, long sealedSize, Duration timeout)
            throws IOException, InterruptedException, ProofException {
        LogClient client = new LogClient(env.api().baseUrl());
        List<NoteVerifier> logKeys = List.of(NoteVerifier.parse(env.signer().verifierKey()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var r = client.send("/boards/" + board + "/checkpoint?witnessed=true");
            if (r.statusCode() == 200 && Checkpoint.open(r.body(), logKeys).size() == sealedSize) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ProofException("the sealed checkpoint of " + board + " at " + sealedSize
                        + " was not witnessed within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(100); // poll interval; the witnessed sealed checkpoint is the condition
        }
    }

    /**
     * Record 0's tlog-proof bundle, verified as `electoral-log verify` does, with the local witness's
     * cosignature required: waits (polling) until the witness has cosigned a checkpoint covering it.
     */
    static TlogProof.Verified witnessedBundle(DevEnvironment env, String board, Duration timeout)
            throws IOException, InterruptedException, ProofException {
        LogClient client = new LogClient(env.api().baseUrl());
        byte[] leaf = client.proof(board, 0, null).leafHash();
        List<NoteVerifier> logKeys = List.of(NoteVerifier.parse(env.signer().verifierKey()));
        List<Cosigner.Verifier> witnesses =
                List.of(Cosigner.Verifier.parse(env.witness().verifierKey()));
        String origin = Setting.ORIGIN_PREFIX.defaultValue + board;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return TlogProof.parse(client.get("/boards/" + board + "/records/0/proof-bundle"))
                        .verify(leaf, origin, logKeys, witnesses, 1);
            } catch (ProofException | IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new ProofException("record 0 of " + board + " was not witnessed within " + timeout.toSeconds()
                            + " s: " + e.getMessage());
                }
                Thread.sleep(100); // poll interval; the verified bundle is the condition
            }
        }
    }
}
