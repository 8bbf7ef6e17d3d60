package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code electoral-log monitor --once} against a real projector and query API: exit 0 with no
 * finding when the log verifies, 1 with a BAD_SIGNATURE finding printed when the key given is not
 * the log's, 2 for options that cannot work.
 */
class MonitorCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int monitor(String... args) {
        out.reset();
        err.reset();
        return new CommandLine(new MonitorCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute(args);
    }

    @Test
    void oneLookExitsZeroOnAVerifiedLogAndOneOnAFinding() throws Exception {
        String board = "monitor-board-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-cli-");
        ElectionStatements made = new ElectionStatements(board, 5);
        try (RunningLog log = new RunningLog("monitor")) {
            ElectoralLogProducer producer = log.producer;
            QueryApi api = log.api;
            ProjectorSettings settings = log.settings;
            DatabaseLogin db = log.stack.database();
            String topic = log.topic;
            producer.publish(made.vote("voter-1", 1_000)).get();
            producer.publish(made.vote("voter-2", 2_000)).get();
            DeadLettersCommandTest.awaitProjected(db, topic, 2);
            Poll.until(
                    Duration.ofMinutes(1),
                    "a checkpoint of " + board,
                    () -> new org.electorallog.verifier.LogEndpoint(api.baseUrl(), null).checkpoint(board) != null);
            String[] common = {
                "--once",
                "--url",
                api.baseUrl(),
                "--origin-prefix",
                settings.originPrefix(),
                "--board",
                board,
                "--state",
                state.toString()
            };
            assertEquals(0, monitor(with(common, "--log-key", settings.signer().verifierKey())), out + " " + err);
            assertTrue(out.toString().contains("monitor: 0 finding(s)"), out.toString());
            // the log's key from a C2SP tlog-policy file, as GET /boards/{board}/policy serves one
            Path policy = Files.writeString(
                    state.resolveSibling(state.getFileName() + ".policy"),
                    "log " + settings.signer().verifierKey() + "\nquorum none\n");
            assertEquals(0, monitor(with(common, "--policy", policy.toString())), out + " " + err);
            assertEquals(
                    2,
                    monitor(with(
                            common,
                            "--policy",
                            policy.toString(),
                            "--log-key",
                            settings.signer().verifierKey())));

            String stranger =
                    NoteSigner.generate("monitor-test.electoral-log.local").verifierKey();
            java.util.List<String> posted = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            com.sun.net.httpserver.HttpServer hook =
                    com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            hook.createContext("/hook", ex -> {
                posted.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                ex.sendResponseHeaders(204, -1);
                ex.close();
            });
            hook.start();
            try {
                String url = "http://127.0.0.1:" + hook.getAddress().getPort() + "/hook";
                assertEquals(1, monitor(with(common, "--log-key", stranger, "--webhook", url)), out + " " + err);
                assertTrue(out.toString().contains("\"kind\":\"BAD_SIGNATURE\""), out.toString());
                assertEquals(1, posted.size(), "the finding went to the webhook: " + posted);
                assertTrue(posted.get(0).contains("\"kind\":\"BAD_SIGNATURE\""), posted.get(0));
            } finally {
                hook.stop(0);
            }
        }
        assertEquals(2, monitor("--once", "--url", "http://127.0.0.1:9", "--log-key", "not-a-key"));
        assertTrue(err.toString().startsWith("monitor: "), err.toString());
        String key = NoteSigner.generate("monitor-test.electoral-log.local").verifierKey();
        assertEquals(2, monitor("--once", "--log-key", key));
        assertTrue(err.toString().contains("give --url, --tiles-url or --mirror"), err.toString());
        assertEquals(2, monitor("--once", "--tiles-url", "http://127.0.0.1:9", "--log-key", key));
        assertTrue(err.toString().contains("name them with --board"), err.toString());
        assertEquals(
                2, monitor("--once", "--url", "http://127.0.0.1:9", "--log-key", key, "--webhook", "ftp://x.example/"));
        assertTrue(err.toString().contains("http:// or https://"), err.toString());
    }

    private static String[] with(String[] common, String... more) {
        String[] all = java.util.Arrays.copyOf(common, common.length + more.length);
        System.arraycopy(more, 0, all, common.length, more.length);
        return all;
    }
}
