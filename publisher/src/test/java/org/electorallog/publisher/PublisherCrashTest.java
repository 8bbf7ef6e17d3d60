package org.electorallog.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.Verification;
import org.junit.jupiter.api.Test;

/**
 * The publisher's crash order (issue 45 item 1): the publisher runs as a child JVM and is killed
 * with SIGKILL at random moments while two boards grow; after every kill, whatever checkpoint each
 * board's directory holds verifies whole from the directory alone (every tile and entry it needs is
 * there), so a reader never sees a checkpoint whose tiles are missing. A last publisher catches up
 * with the database.
 */
class PublisherCrashTest {
    static final int KILLS = Integer.getInteger("electoral-log.publisher.kills", 8);

    @Test
    void aKilledPublisherNeverLeavesACheckpointWithoutItsTiles() throws Exception {
        long seed = Long.getLong("electoral-log.publisher.seed", System.nanoTime());
        System.out.println(
                "PublisherCrashTest seed " + seed + " (replay: -Delectoral-log.publisher.seed=" + seed + ")");
        Random random = new Random(seed);
        List<String> boards = List.of("crash-a-" + seed, "crash-b-" + seed);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "crash-published-");
        Path logs = Files.createDirectories(Path.of("target/publisher-crash").toAbsolutePath());
        try (Projection p = Projection.start("crash")) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(
                    () -> {
                        try (ElectoralLogProducer producer = p.producer()) {
                            for (int i = 0; i < 6_000; i++) {
                                String board = boards.get(i % 2);
                                producer.publish(PublisherTest.statements(board, "v-", i, i + 1)
                                        .get(0));
                                if (i % 100 == 99) {
                                    producer.flush();
                                    Thread.sleep(150); // spreads the growth over the kill loop
                                }
                            }
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        }
                    },
                    "crash-writer");
            writer.start();
            for (int k = 0; k < KILLS; k++) {
                Path log = logs.resolve("publisher-" + k + ".log");
                Process child = start(p, dir, log);
                Poll.until(java.time.Duration.ofSeconds(60), "the publisher child to start", () -> {
                    assertTrue(child.isAlive(), () -> "the publisher child died: " + read(log));
                    return Files.exists(log) && read(log).contains("publisher running");
                });
                Thread.sleep(random.nextInt(800)); // the random moment of the kill
                child.destroyForcibly(); // SIGKILL, at any point of a round
                child.waitFor();
                for (String board : boards) {
                    if (Files.exists(dir.resolve(board).resolve("checkpoint"))) {
                        Verification v = PublisherTest.verify(dir, board);
                        assertTrue(v.verified(), "after kill " + k + ", board " + board + ": " + v.problems());
                    }
                }
            }
            writer.join();
            assertEquals(null, failure.get());
            for (String board : boards) {
                p.awaitCheckpoint(board, 3_000);
            }
            Process last = start(p, dir, logs.resolve("publisher-last.log"));
            try {
                for (String board : boards) {
                    Poll.until(java.time.Duration.ofMinutes(1), board + " published at 3000", () -> {
                        Path cp = dir.resolve(board).resolve("checkpoint");
                        return Files.exists(cp) && Files.readString(cp).contains("\n3000\n");
                    });
                    Verification v = PublisherTest.verify(dir, board);
                    assertTrue(v.verified(), v.problems().toString());
                    assertEquals(3_000, v.entries());
                }
            } finally {
                last.destroy();
                last.waitFor();
            }
        }
    }

    static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    static Process start(Projection p, Path dir, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "org.electorallog.publisher.PublisherMain",
                dir.toString(),
                "20",
                "entries");
        DatabaseLogin db = Projection.STACK.database();
        Map<String, String> env = pb.environment();
        env.put(Setting.JDBC_URL.env, p.jdbcUrl());
        env.put(Setting.DB_USER.env, db.user());
        env.put(Setting.DB_PASSWORD.env, db.password());
        return pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
