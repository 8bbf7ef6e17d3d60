package org.electorallog.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.electorallog.core.Cosigner;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.WitnessServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log witness}: a C2SP tlog-witness that an observer runs on their own machine
 * (docs/witnesses.md): it cosigns the log's checkpoints as long as each is consistent with the
 * last one it cosigned for that origin, and keeps that one on disk so that a restart never accepts
 * a rollback. Runs until Ctrl-C; exit 2 with one line when it cannot start.
 */
@Command(
        name = "witness",
        mixinStandardHelpOptions = true,
        description = "Run a witness (C2SP tlog-witness) that cosigns the log's checkpoints; until Ctrl-C.")
public final class WitnessCommand implements Callable<Integer> {
    @Option(
            names = "--key",
            required = true,
            description = "the witness's private key file, from `electoral-log keygen witness --name <name>`")
    Path key;

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

    @Override
    public Integer call() throws InterruptedException {
        WitnessServer server;
        try {
            Cosigner.Key k = Cosigner.Key.parse(Files.readString(key, StandardCharsets.US_ASCII));
            List<String> lines = new ArrayList<>(logs);
            if (logsFile != null) {
                lines.addAll(Files.readAllLines(logsFile, StandardCharsets.UTF_8));
            }
            server = WitnessServer.start(host, port, k, FollowedLogs.parse(lines), state);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("witness: " + e.getMessage());
            return 2;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "witness-stop"));
        System.out.println("witness listening on http://" + host + ":" + server.port() + "/add-checkpoint");
        System.out.println("cosigner key (give it to the log's operator and to voters): " + server.verifierKey());
        System.out.println("the log's operator adds to ELECTORAL_LOG_WITNESSES: " + server.verifierKey() + " http://"
                + host + ":" + server.port());
        stopped.await();
        return 0;
    }
}
