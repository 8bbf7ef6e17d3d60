package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TlogPolicy;
import org.electorallog.mirror.MirrorClient;
import org.electorallog.mirror.MirrorServer;
import org.electorallog.query.PublishedVoterPage;
import org.electorallog.query.VoterLanguages;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.witness.FollowedLogs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log mirror}: a C2SP tlog-mirror that an observer (a party, an NGO, an archive)
 * runs to hold its own full copy of each board (docs/witnesses.md, Mirrors): every entry checked
 * against the log's checkpoint before it is stored, the copy served in the tlog-tiles layout at
 * {@code /<hex SHA-256 of the origin>/}, and the mirror's cosignature on each checkpoint it holds
 * whole. {@code mirror init} makes its state once; {@code mirror push} sends a board's new entries
 * to mirrors. Runs until Ctrl-C; exit 2 with one line when it cannot start.
 */
@Command(
        name = "mirror",
        mixinStandardHelpOptions = true,
        subcommands = {MirrorCommand.Init.class, MirrorCommand.Push.class},
        description = "Run a mirror (C2SP tlog-mirror) that holds a full copy of the log's boards; until Ctrl-C.")
public final class MirrorCommand implements Callable<Integer> {
    /** {@code electoral-log mirror init}: makes a new state directory, once, before the first start. */
    @Command(name = "init", description = "Make the mirror's state directory once, before its first start.")
    static final class Init implements Callable<Integer> {
        @Option(names = "--state", defaultValue = "mirror-state", description = "default ${DEFAULT-VALUE}")
        Path dir;

        @Override
        public Integer call() {
            try {
                MirrorServer.initialise(dir);
            } catch (IOException e) {
                System.err.println("mirror init: " + e.getMessage());
                return 2;
            }
            System.out.println("mirror state directory ready: " + dir.toAbsolutePath());
            return 0;
        }
    }

    /**
     * {@code electoral-log mirror push}: sends a board's checkpoint and the entries each mirror lacks
     * (tlog-mirror add-checkpoint and add-entries), once or every {@code --every} seconds.
     */
    @Command(
            name = "push",
            mixinStandardHelpOptions = true,
            description = "Push a board's checkpoint and new entries to mirrors (C2SP tlog-mirror).")
    public static final class Push implements Callable<Integer> {
        @Option(names = "--mirror", description = "a mirror's URL (repeatable)")
        List<String> mirrors = new ArrayList<>();

        @Option(
                names = "--policy",
                description = "a C2SP tlog-policy file: every URL of its witness lines that mirrors the board is "
                        + "pushed to (those that are witnesses, not mirrors, are skipped)")
        Path policy;

        @Option(names = "--url", description = "a query API of the log (with --board)")
        String url;

        @Option(names = "--board", description = "the board (with --url)")
        String board;

        @Option(names = "--token", description = "a bearer token that reads entry bundles (an observer's)")
        String token;

        @Option(names = "--tiles-url", description = "a board published as static files (publish-tiles): its URL")
        String tilesUrl;

        @Option(names = "--dir", description = "a board's directory in the C2SP tlog-tiles layout")
        Path dir;

        @Option(names = "--every", description = "push again every so many seconds until Ctrl-C (default: once)")
        Integer every;

        private final PrintStream out;
        private final PrintStream err;

        public Push() {
            this(System.out, System.err);
        }

        /** Writing what each mirror holds to {@code out} and failures to {@code err}. */
        public Push(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        private List<String> targets(TlogFiles files) throws IOException {
            return MirrorCommand.targets(mirrors, policy, files, out);
        }

        @Override
        public Integer call() throws InterruptedException {
            int sources = (url != null ? 1 : 0) + (dir != null ? 1 : 0) + (tilesUrl != null ? 1 : 0);
            if (sources != 1 || (url != null && board == null)) {
                err.println("mirror push: give --url with --board, or --dir, or --tiles-url");
                return 2;
            }
            TlogFiles files = url != null
                    ? TlogFiles.api(url, board, token)
                    : dir != null ? TlogFiles.directory(dir) : TlogFiles.url(tilesUrl);
            List<String> targets;
            try {
                targets = targets(files);
            } catch (IOException | RuntimeException e) {
                err.println("mirror push: " + e.getMessage());
                return 2;
            }
            if (targets.isEmpty()) {
                err.println("mirror push: no mirror to push to (--mirror URL, or a --policy naming one)");
                return 2;
            }
            int failed = 0;
            do {
                failed = 0;
                for (String m : targets) {
                    try {
                        MirrorClient.Pushed p = new MirrorClient(m).push(files);
                        out.println("mirror " + m + ": " + p.origin() + " held at size " + p.size() + " ("
                                + p.entriesSent() + " entries sent), cosigned by " + cosigners(p.cosignatures()));
                    } catch (IOException | RuntimeException e) {
                        err.println("mirror push to " + m + ": " + e.getMessage());
                        failed++;
                    }
                }
                if (every != null) {
                    Thread.sleep(Duration.ofSeconds(Math.max(1, every)).toMillis());
                }
            } while (every != null);
            return failed == 0 ? 0 : 1;
        }
    }

    /**
     * The mirrors to push to: each {@code --mirror}, and each URL of {@code --policy}'s witness lines
     * that answers as a mirror of the board's origin.
     */
    static List<String> targets(List<String> mirrors, Path policy, TlogFiles files, PrintStream out)
            throws IOException {
        List<String> targets = new ArrayList<>(mirrors);
        if (policy == null) {
            return targets;
        }
        byte[] note = files.get("checkpoint");
        if (note == null) {
            throw new IOException("the board has no checkpoint");
        }
        String origin;
        try {
            origin = Checkpoint.parse(SignedNote.parse(new String(note, StandardCharsets.UTF_8))
                            .text())
                    .origin();
        } catch (ProofException e) {
            throw new IOException("the board's checkpoint cannot be read: " + e.getMessage(), e);
        }
        Set<String> urls = new LinkedHashSet<>();
        for (TlogPolicy.Witness w : TlogPolicy.parse(Files.readString(policy, StandardCharsets.UTF_8))
                .witnesses()) {
            if (w.url() != null) {
                urls.add(w.url().toString());
            }
        }
        for (String u : urls) {
            if (targets.contains(u)) {
                continue;
            }
            if (new MirrorClient(u).mirrors(origin)) {
                targets.add(u);
            } else {
                out.println("policy: " + u + " does not mirror " + origin + " (a witness, or a mirror of other logs)");
            }
        }
        return targets;
    }

    /**
     * The voter page for a mirror of {@code followed}: the boards' origin prefix is that of the first
     * followed origin ending in {@code *}.
     */
    static Map<String, byte[]> page(FollowedLogs followed) {
        String prefix = followed.entries().stream()
                .map(FollowedLogs.Entry::origin)
                .filter(o -> o.endsWith("*"))
                .map(o -> o.substring(0, o.length() - 1))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "--voter-page needs a --log whose origin ends in * (the boards' prefix)"));
        return PublishedVoterPage.forMirror(MirrorServer.PAGE, VoterLanguages.all(), prefix);
    }

    /** The cosignature lines' key names and kinds, e.g. "m1 (Ed25519), m1 (ML-DSA-44)". */
    static String cosigners(String lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines.split("\n")) {
            String[] words = line.strip().split(" ");
            if (words.length == 3 && words[0].equals("\u2014")) {
                // a cosignature/v1 line is key ID (4), timestamp (8) and Ed25519 (64): 76 bytes of base64 100
                out.add(words[1] + (words[2].length() <= 104 ? " (Ed25519)" : " (ML-DSA-44)"));
            }
        }
        return out.isEmpty() ? "nobody (the mirror answered without a cosignature)" : String.join(", ", out);
    }

    @Option(
            names = "--key",
            description = "the mirror's private key file, from `electoral-log keygen witness --name <name>` "
                    + "(a mirror is a cosigner; required)")
    Path key;

    @Option(
            names = "--post-quantum-key",
            description = "the mirror's ML-DSA-44 key file (<name>.mldsa.key): it then also cosigns with subtree/v1")
    Path postQuantumKey;

    @Option(
            names = "--log",
            description = "a log it mirrors: '<origin> <log verifier key>'; an origin ending in * mirrors every "
                    + "board under that prefix; repeatable")
    List<String> logs = new ArrayList<>();

    @Option(names = "--logs", description = "a file of such lines (# starts a comment)")
    Path logsFile;

    @Option(
            names = "--state",
            defaultValue = "mirror-state",
            description = "directory of the copies and the pending checkpoints (keep it); default ${DEFAULT-VALUE}")
    Path state;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "address to listen on; default ${DEFAULT-VALUE}")
    String host;

    @Option(names = "--port", defaultValue = "7390", description = "port; 0 = any free port; default ${DEFAULT-VALUE}")
    int port;

    @Option(
            names = "--init",
            description = "make the state directory if it is missing (the first start only: a mirror that lost its "
                    + "state would cosign a rollback)")
    boolean init;

    @Option(
            names = "--read-timeout",
            defaultValue = "30",
            description = "seconds a connection may send nothing before it is closed; default ${DEFAULT-VALUE}")
    int readTimeoutSeconds;

    @Option(names = "--threads", defaultValue = "16", description = "request threads; default ${DEFAULT-VALUE}")
    int threads;

    @Option(
            names = "--voter-page",
            description = "also serve the voter page at /voter/, checking a ballot against this mirror's copy; "
                    + "the board's origin is the first --log origin ending in * and the board's name")
    boolean voterPage;

    @Override
    public Integer call() throws InterruptedException {
        if (key == null) {
            System.err.println("mirror: --key is required (the mirror's private key file)");
            return 2;
        }
        MirrorServer server;
        try {
            List<Cosigner.Key> keys = CosignerKeys.read(key, postQuantumKey);
            FollowedLogs followed = CosignerKeys.followed(logs, logsFile);
            server = MirrorServer.start(
                    host,
                    port,
                    keys,
                    followed,
                    state,
                    init,
                    Duration.ofSeconds(readTimeoutSeconds),
                    threads,
                    voterPage ? page(followed) : Map.of());
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("mirror: " + e.getMessage());
            return 2;
        }
        System.out.println(
                "mirror listening on http://" + host + ":" + server.port() + "/ (add-checkpoint, add-entries)");
        System.out.println("cosigner keys (a policy's witness line for this mirror): " + server.verifierKeys());
        CosignerKeys.runUntilStopped(server, "mirror");
        return 0;
    }
}
