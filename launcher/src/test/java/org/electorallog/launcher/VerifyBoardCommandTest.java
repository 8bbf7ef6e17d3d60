package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code electoral-log verify-board --url} against a real projector and query API: exit 0 with the
 * leaves verified, 1 under a key that is not the log's, 2 for options that cannot work (no board,
 * --previous without --dir, a registry export that is not one).
 */
class VerifyBoardCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int verifyBoard(String... args) {
        out.reset();
        err.reset();
        return new CommandLine(new VerifyBoardCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute(args);
    }

    @Test
    void aBoardVerifiesUnderTheLogsKeyOnly() throws Exception {
        String board = "verify-board-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 7);
        try (RunningLog log = new RunningLog("verify-board")) {
            for (int i = 0; i < 3; i++) {
                log.producer.publish(made.vote("voter-" + i, 1_000 + i)).get();
            }
            LogEndpoint api = new LogEndpoint(log.api.baseUrl(), null);
            Poll.until(Duration.ofMinutes(1), board + " checkpointed at 3", () -> {
                String note = api.checkpoint(board);
                return note != null && note.contains("\n3\n");
            });
            String key = log.settings.signer().verifierKey();
            assertEquals(
                    0, verifyBoard("--url", log.api.baseUrl(), "--board", board, "--log-key", key), out + " " + err);
            assertTrue(out.toString().startsWith("verified: 3 leaves"), out.toString());
            String stranger = org.electorallog.core.NoteSigner.generate("x.electoral-log.local")
                    .verifierKey();
            assertEquals(1, verifyBoard("--url", log.api.baseUrl(), "--board", board, "--log-key", stranger));
            assertTrue(out.toString().contains("problem: the checkpoint does not verify"), out.toString());
            // the same from a C2SP tlog-policy file: its log, and a quorum that asks no witness
            java.nio.file.Path policy = java.nio.file.Files.writeString(
                    java.nio.file.Files.createTempFile(
                            java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/tmp")),
                            "board",
                            ".policy"),
                    "log " + key + "\nquorum none\n");
            assertEquals(
                    0,
                    verifyBoard("--url", log.api.baseUrl(), "--board", board, "--policy", policy.toString()),
                    out + " " + err);
            assertTrue(out.toString().startsWith("verified: 3 leaves"), out.toString());
            assertEquals(
                    2,
                    verifyBoard(
                            "--url",
                            log.api.baseUrl(),
                            "--board",
                            board,
                            "--policy",
                            policy.toString(),
                            "--log-key",
                            key));
            assertTrue(err.toString().contains("give it without --log-key"), err.toString());
        }
        assertEquals(2, verifyBoard("--url", "http://127.0.0.1:9", "--log-key", "k"), "--url without --board");
        assertTrue(err.toString().contains("give --url with --board, or --dir, or --tiles-url"), err.toString());
        assertEquals(
                2, verifyBoard("--url", "http://127.0.0.1:9", "--board", "b", "--log-key", "k", "--previous", "."));
        assertTrue(err.toString().contains("--previous goes with --dir"), err.toString());
        java.nio.file.Path senders = java.nio.file.Files.createTempFile(
                java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/tmp")), "senders", ".jsonl");
        java.nio.file.Files.writeString(senders, "{\"public_key\": 5}\n");
        String key = org.electorallog.core.NoteSigner.generate("x.electoral-log.local")
                .verifierKey();
        assertEquals(2, verifyBoard("--dir", ".", "--log-key", key, "--senders", senders.toString()));
        assertTrue(err.toString().contains("line 1 is not a sender grant"), err.toString());
    }

    /**
     * Issue 46: a board in the committed form verifies whole for anyone, from the API without a
     * token: every entry hashed into its leaf and every sender signature checked.
     */
    @Test
    void aBoardInTheCommittedFormVerifiesWholeWithoutAToken() throws Exception {
        String board = "verify-committed-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 9);
        DatabaseLogin db = SharedStack.get().database();
        try (RunningLog log = new RunningLog("verify-committed");
                HikariDataSource keys =
                        ProjectionDatabase.pool(db.jdbcUrl(), db.user(), db.password(), 2, "verify-committed-keys");
                ElectoralLogProducer committed = ElectoralLogProducer.builder(log.stack.kafkaBootstrap())
                        .topic(log.topic)
                        .senderKey(SigningKey.generate())
                        .committedForm(new SqlSealingKeys(keys))
                        .build()) {
            for (int i = 0; i < 300; i++) {
                Statement vote = made.vote("committed-voter-" + i, 1_796_000_000_000L + i);
                vote.setSenderPublicKey(ByteBuffer.allocate(0)); // the producer's key, which signs it
                committed.publish(vote);
            }
            committed.flush();
            LogEndpoint api = new LogEndpoint(log.api.baseUrl(), null);
            Poll.until(Duration.ofMinutes(1), board + " checkpointed at 300", () -> {
                String note = api.checkpoint(board);
                return note != null && note.contains("\n300\n");
            });
            String key = log.settings.signer().verifierKey();
            assertEquals(
                    0, verifyBoard("--url", log.api.baseUrl(), "--board", board, "--log-key", key), out + " " + err);
            assertTrue(out.toString().startsWith("verified: 300 leaves (300 entries hashed)"), out.toString());
            assertTrue(
                    out.toString().contains("statement signatures: 300 verified, 0 entries without one"),
                    out.toString());
        }
    }
}
