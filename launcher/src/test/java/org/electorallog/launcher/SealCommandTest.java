package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code electoral-log seal} against a real projector and query API (issue 42): the seal is
 * acknowledged, the command waits until the API reports the board sealed at the size that includes
 * the seal, a second run sends the same statement and the board keeps it once, and a statement
 * published afterwards leaves the board as it was.
 */
class SealCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** The log's signing key the command signs its seal with (decision 130); null: none configured. */
    private String signingKey;

    private int seal(String... args) {
        out.reset();
        err.reset();
        SealCommand c = new SealCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        c.environment =
                signingKey == null ? java.util.Map.of() : java.util.Map.of("ELECTORAL_LOG_SIGNING_KEY", signingKey);
        return new CommandLine(c).execute(args);
    }

    @Test
    void aBoardIsSealedOnceAndStaysSealed() throws Exception {
        String board = "seal-board-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 3);
        List<Statement> votes = List.of(made.vote("voter-1", 1_000), made.vote("voter-2", 2_000));
        DatabaseLogin db = SharedStack.get().database();
        try (RunningLog log = new RunningLog("seal")) {
            signingKey = log.settings.signer().signerKey();
            String topic = log.topic;
            ElectoralLogProducer producer = log.producer;
            for (Statement s : votes) {
                producer.publish(s).get();
            }
            String[] args = {
                "--board",
                board,
                "--bootstrap",
                log.stack.kafkaBootstrap(),
                "--topic",
                topic,
                "--api",
                log.api.baseUrl()
            };
            assertEquals(0, seal(args), err.toString());
            String sealedAt = "board " + board + " sealed at size " + (votes.size() + 1) + ",";
            assertTrue(out.toString().contains(sealedAt), out.toString());

            assertEquals(0, seal(args), "sealing again is harmless: " + err);
            assertTrue(
                    out.toString().contains(sealedAt) && out.toString().contains("(already: nothing sent)"),
                    "the board is said sealed and nothing is sent again (issue 61): " + out);

            // two votes, one seal, one late vote: four events, all of them behind the projector
            producer.publish(made.vote("voter-3", 3_000)).get();
            DeadLettersCommandTest.awaitProjected(db, topic, 4);
            assertEquals(votes.size() + 1, DeadLettersCommandTest.boardSize(db, board), "the late vote is not on it");
        }
        assertEquals(2, seal("--board", "Not A Board"), "a bad board name is refused before anything is sent");
        assertTrue(err.toString().contains("is not a board name"), err.toString());
        assertEquals(2, seal("--board", "heads"), "the log's own boards are never sealed");
        assertTrue(err.toString().contains("board heads is the log's own and is never sealed"), err.toString());
        assertEquals(2, seal("--board", "erasures"));
    }

    /**
     * Issue 61 item 1: a seal is the log's own statement. Without the log's key the command refuses
     * before sending; with another sender key it refuses too; a seal signed by another key (any
     * producer, with a wildcard grant or none) is dead-lettered RESERVED_NAME and the board stays open.
     */
    @Test
    void aSealIsSignedByTheLogsKeyOrRefused() throws Exception {
        String board = "keyless-" + Long.toString(System.nanoTime(), 36);
        try (RunningLog log = new RunningLog("sealkey")) {
            String[] args = {"--board", board, "--bootstrap", log.stack.kafkaBootstrap(), "--topic", log.topic};
            signingKey = null;
            assertEquals(2, seal(args), out + " / " + err);
            assertTrue(err.toString().contains("ELECTORAL_LOG_SIGNING_KEY"), err.toString());
            signingKey = log.settings.signer().signerKey();
            java.nio.file.Path key = java.nio.file.Files.createTempFile(
                    java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/tmp")), "sender-", ".key");
            java.nio.file.Files.writeString(
                    key, org.electorallog.core.SigningKey.generate().seedBase64());
            String[] withKey = {
                "--board",
                board,
                "--bootstrap",
                log.stack.kafkaBootstrap(),
                "--topic",
                log.topic,
                "--sender-key-file",
                key.toString()
            };
            assertEquals(2, seal(withKey), out + " / " + err);
            assertTrue(err.toString().contains("--sender-key-file and --system-key-file do not apply"), err.toString());

            // a producer's own seal: refused whoever it is, the board goes on
            ElectionStatements made = new ElectionStatements(board, 3);
            log.producer.publish(made.vote("voter-1", 1_000)).get();
            log.producer
                    .publish(SealCommand.statement(board, "back-office", null, 2_000))
                    .get();
            log.producer.publish(made.vote("voter-2", 3_000)).get();
            DeadLettersCommandTest.awaitProjected(SharedStack.get().database(), log.topic, 3);
            assertEquals(2, DeadLettersCommandTest.boardSize(SharedStack.get().database(), board), "both votes");
            awaitOneReservedNameRefusal(log);
        }
    }

    /**
     * Issue 61: a vote sent first under the board's seal ID ({@code seal:<board>}) cannot take it: it
     * is dead-lettered RESERVED_NAME, and the real seal, signed by the log's key, seals the board.
     */
    @Test
    void aVoteUnderTheSealsIdIsRefusedAndTheSealGoesThrough() throws Exception {
        String board = "squatted-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 3);
        try (RunningLog log = new RunningLog("squat")) {
            signingKey = log.settings.signer().signerKey();
            Statement squat = made.vote("voter-1", 1_000);
            squat.setDeliveryId("seal:" + board);
            log.producer.publish(squat).get();
            int code = seal(
                    "--board",
                    board,
                    "--bootstrap",
                    log.stack.kafkaBootstrap(),
                    "--topic",
                    log.topic,
                    "--api",
                    log.api.baseUrl(),
                    "--timeout",
                    "60");
            assertEquals(0, code, out + " / " + err);
            assertTrue(out.toString().contains("board " + board + " sealed at size 1,"), out.toString());
            awaitOneReservedNameRefusal(log);
            assertEquals(1, DeadLettersCommandTest.boardSize(SharedStack.get().database(), board), "the seal alone");
        }
    }

    /** Waits until the log's projector has dead-lettered one statement RESERVED_NAME. */
    static void awaitOneReservedNameRefusal(RunningLog log) throws InterruptedException {
        org.electorallog.testkit.Poll.until(
                java.time.Duration.ofMinutes(1),
                "one statement dead-lettered RESERVED_NAME",
                () -> log.projector.metrics().snapshot().get("dead_letters_reserved_name"),
                n -> n != null && n == 1L);
    }
}
