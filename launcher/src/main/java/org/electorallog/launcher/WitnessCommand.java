package org.electorallog.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.witness.WitnessServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log witness}: a C2SP tlog-witness that an observer runs on their own machine
 * (docs/witnesses.md): it cosigns the log's checkpoints as long as each is consistent with the
 * last one it cosigned for that origin, and keeps that one on disk so that a restart never accepts
 * a rollback. Runs until Ctrl-C; exit 2 with one line when it cannot start. Its state directory
 * must exist: {@code witness init} (or {@code --init} on the first start) makes it, and a start on
 * a missing or empty one is refused (issue 41).
 */
@Command(
        name = "witness",
        mixinStandardHelpOptions = true,
        subcommands = WitnessCommand.Init.class,
        description = "Run a witness (C2SP tlog-witness) that cosigns the log's checkpoints; until Ctrl-C.")
public final class WitnessCommand implements Callable<Integer> {
    /**
     * {@code electoral-log witness init}: makes a new state directory, once, before the first start.
     * A class, not a method: the help options every subcommand gets would not fit a method's
     * parameters (picocli passed them to it: "argument type mismatch").
     */
    @Command(name = "init", description = "Make the witness's state directory once, before its first start.")
    static final class Init implements Callable<Integer> {
        @Option(names = "--state", defaultValue = "witness-state", description = "default ${DEFAULT-VALUE}")
        Path dir;

        @Override
        public Integer call() {
            try {
                WitnessServer.initialise(dir);
            } catch (IOException e) {
                System.err.println("witness init: " + e.getMessage());
                return 2;
            }
            System.out.println("witness state directory ready: " + dir.toAbsolutePath());
            return 0;
        }
    }

    @Option(
            names = "--key",
            description =
                    "the witness's private key file, from `electoral-log keygen witness --name <name>` (required)")
    Path key;

    @Option(
            names = "--post-quantum-key",
            description = "the witness's ML-DSA-44 key file (`keygen witness` writes it as <name>.mldsa.key): it then "
                    + "also cosigns with subtree/v1 (C2SP tlog-cosignature), one more line in each answer")
    Path postQuantumKey;

    @Option(
            names = "--log",
            description = "a log it follows: '<origin> <log verifier key>'; an origin ending in * follows every "
                    + "board under that prefix (e.g. 'electoral-log.local/* <vkey>'); repeatable")
    List<String> logs = new ArrayList<>();

    @Option(names = "--logs", description = "a file of such lines (# starts a comment)")
    Path logsFile;

    @Option(
            names = "--state",
            defaultValue = "witness-state",
            description = "directory of the latest cosigned checkpoint per origin (keep it: it is what "
                    + "refuses rollbacks); default ${DEFAULT-VALUE}")
    Path state;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "address to listen on; default ${DEFAULT-VALUE}")
    String host;

    @Option(names = "--port", defaultValue = "7380", description = "port; 0 = any free port; default ${DEFAULT-VALUE}")
    int port;

    @Option(
            names = "--init",
            description = "make the state directory if it is missing or empty (the first start only: a witness that "
                    + "lost its state would cosign a rollback)")
    boolean init;

    @Option(
            names = "--read-timeout",
            defaultValue = "10",
            description = "seconds a connection may send nothing before it is closed; default ${DEFAULT-VALUE}")
    int readTimeoutSeconds;

    @Option(
            names = "--threads",
            defaultValue = "16",
            description = "request threads (at least 4); default ${DEFAULT-VALUE}")
    int threads;

    @Option(
            names = "--rate-per-log",
            defaultValue = "10",
            description = "add-checkpoint requests a second per log before 429 (bursts of twice as many); "
                    + "default ${DEFAULT-VALUE}")
    double ratePerLog;

    @Override
    public Integer call() throws InterruptedException {
        if (key == null) {
            System.err.println("witness: --key is required (the witness's private key file)");
            return 2;
        }
        WitnessServer server;
        try {
            List<Cosigner.Key> keys = CosignerKeys.read(key, postQuantumKey);
            WitnessServer.Options options = new WitnessServer.Options(
                    Duration.ofSeconds(readTimeoutSeconds),
                    threads,
                    WitnessServer.Options.defaults().queue(),
                    ratePerLog,
                    (int) Math.max(1, Math.ceil(2 * ratePerLog)));
            server = WitnessServer.start(host, port, keys, CosignerKeys.followed(logs, logsFile), state, init, options);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("witness: " + e.getMessage());
            return 2;
        }
        System.out.println("witness listening on http://" + host + ":" + server.port() + "/add-checkpoint");
        System.out.println("cosigner key (give it to the log's operator and to voters): " + server.verifierKey());
        System.out.println("the log's operator adds to ELECTORAL_LOG_WITNESSES: " + server.verifierKey() + " http://"
                + host + ":" + server.port());
        CosignerKeys.runUntilStopped(server, "witness");
        return 0;
    }
}
