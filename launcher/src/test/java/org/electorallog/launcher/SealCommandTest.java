package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.infra.DatabaseAddress;
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

    private int seal(String... args) {
        out.reset();
        err.reset();
        SealCommand c = new SealCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CommandLine(c).execute(args);
    }

    @Test
    void aBoardIsSealedOnceAndStaysSealed() throws Exception {
        String board = "seal-board-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 3);
        List<Statement> votes = List.of(made.vote("voter-1", 1_000), made.vote("voter-2", 2_000));
        DatabaseAddress db = SharedStack.get().database();
        try (RunningLog log = new RunningLog("seal")) {
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
    }

    /**
     * Issue 61: a vote sent first under the board's seal ID ({@code seal:<board>}) does not make the
     * real seal a silent duplicate: the seal is dead-lettered DELIVERY_ID_REUSED (counted), and the
     * command, which reports the projected outcome and not Kafka's acknowledgement, fails saying so.
     */
    @Test
    void aSealWhoseIdAVoteTookIsRefusedAndTheCommandSaysSo() throws Exception {
        String board = "squatted-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 3);
        try (RunningLog log = new RunningLog("squat")) {
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
                    "15");
            assertEquals(1, code, out + " / " + err);
            assertTrue(err.toString().contains("DELIVERY_ID_REUSED"), err.toString());
            org.electorallog.testkit.Poll.until(
                    java.time.Duration.ofMinutes(1),
                    "the seal dead-lettered DELIVERY_ID_REUSED",
                    () -> log.projector.metrics().snapshot().get("dead_letters_delivery_id_reused"),
                    n -> n != null && n == 1L);
            assertEquals(1, DeadLettersCommandTest.boardSize(SharedStack.get().database(), board), "the vote alone");
        }
    }
}
