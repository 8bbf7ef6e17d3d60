package org.electorallog.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.electorallog.core.Cosigner;
import org.electorallog.witness.FollowedLogs;

/**
 * What the two cosigners an observer runs, {@code witness} and {@code mirror}, share on the command
 * line: their keys read from {@code keygen witness}'s files (the Ed25519 key, then the ML-DSA-44 one
 * if given), the logs they follow, and running until Ctrl-C.
 */
final class CosignerKeys {
    private CosignerKeys() {}

    /** The Ed25519 key of {@code key}, then the ML-DSA-44 key of {@code postQuantumKey} when given. */
    static List<Cosigner.Key> read(Path key, Path postQuantumKey) throws IOException {
        List<Cosigner.Key> keys = new ArrayList<>();
        keys.add(Cosigner.Key.parse(Files.readString(key, StandardCharsets.US_ASCII)));
        if (postQuantumKey != null) {
            Cosigner.Key pq = Cosigner.Key.parse(Files.readString(postQuantumKey, StandardCharsets.US_ASCII));
            if (!pq.postQuantum()) {
                throw new IllegalArgumentException(postQuantumKey + " is not an ML-DSA-44 key (type 0x06)");
            }
            keys.add(pq);
        }
        return keys;
    }

    /** The logs of {@code --log} lines and the file of {@code --logs} (when given). */
    static FollowedLogs followed(List<String> logs, Path logsFile) throws IOException {
        List<String> lines = new ArrayList<>(logs);
        if (logsFile != null) {
            lines.addAll(Files.readAllLines(logsFile, StandardCharsets.UTF_8));
        }
        return FollowedLogs.parse(lines);
    }

    /** Blocks until the JVM is asked to stop (Ctrl-C, SIGTERM), then closes {@code server}. */
    static void runUntilStopped(AutoCloseable server, String name) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception e) {
                                System.err.println(name + ": did not stop cleanly: " + e);
                            }
                            stopped.countDown();
                        },
                        name + "-stop"));
        stopped.await();
    }
}
