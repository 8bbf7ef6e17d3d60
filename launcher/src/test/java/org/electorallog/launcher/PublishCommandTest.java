package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.EventsTopic;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.testkit.TopicReader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code publish} as a user runs it: JSON arguments, a JSONL file with a bad line, standard input. */
class PublishCommandTest {
    final Stack stack = SharedStack.get();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    static String line(String board, int i) {
        return "{\"board\":\"" + board + "\",\"delivery_id\":\"cli-" + i + "\",\"kind\":\"CAST_VOTE\","
                + "\"statement_timestamp\":\"2026-11-30T10:00:0" + (i % 10) + "Z\",\"sender_name\":\"cli\","
                + "\"sender_public_key\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"user_id\":\"u" + i + "\","
                + "\"body\":{\"type\":\"CastVote\",\"election_id\":\"e1\",\"pseudonym_hash\":\"AQI=\",\"cast_vote_hash\":\"AwQ=\"}}";
    }

    int run(String stdin, String... args) {
        PublishCommand cmd = new PublishCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new CommandLine(cmd).execute(args);
    }

    @Test
    void aBadLineIsReportedWithItsNumberAndTheRestArePublished() throws Exception {
        String topic = "cli-file";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target/tmp")), "statements", ".jsonl");
        String bad = line("cli-board", 3).replace("\"user_id\"", "\"user_idd\"");
        Files.writeString(
                file,
                String.join(
                                "\n",
                                line("cli-board", 1),
                                line("cli-board", 2),
                                bad,
                                "",
                                line("cli-board", 4),
                                "{not json",
                                line("cli-board", 6))
                        + "\n");
        int code = run("", "--bootstrap", stack.kafkaBootstrap(), "--topic", topic, "--file", file.toString());
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, e);
        assertTrue(e.contains("line 3: user_idd: unknown field"), e);
        assertTrue(e.contains("line 6: not JSON"), e);
        assertTrue(
                out.toString(StandardCharsets.UTF_8).contains("acknowledged 4, failed 2"),
                out.toString(StandardCharsets.UTF_8));
        List<ConsumerRecord<String, byte[]>> records = TopicReader.readAll(stack.kafkaBootstrap(), topic);
        assertEquals(4, records.size());
        StatementCodec codec = StatementCodec.embedded();
        assertEquals("cli-1", codec.decode(records.get(0).value()).deliveryId());
        assertEquals("cli-6", codec.decode(records.get(3).value()).deliveryId());
        assertEquals(1_796_032_802_000L, codec.decode(records.get(1).value()).statementTimestamp());
    }

    @Test
    void oneStatementAsAnArgumentAndManyFromStandardInput() throws Exception {
        String topic = "cli-args";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        assertEquals(0, run("", "--bootstrap", stack.kafkaBootstrap(), "--topic", topic, line("cli-board", 7)));
        assertEquals(
                0,
                run(
                        line("cli-board", 8) + "\n" + line("cli-board", 9) + "\n",
                        "--bootstrap",
                        stack.kafkaBootstrap(),
                        "--topic",
                        topic,
                        "--file",
                        "-"));
        assertEquals(3, TopicReader.readAll(stack.kafkaBootstrap(), topic).size());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, run(""));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("give statements as JSON arguments or --file"));
    }

    /**
     * Issue 61 item 7: with {@code --api} the command reports whether each statement is recorded, not
     * only acknowledged: a vote is recorded at its record; a vote under a board's seal ID is
     * acknowledged by Kafka, refused by the projector (RESERVED_NAME), and the command exits 1 saying
     * it is not recorded. A delivery ID with '/' in it is found too.
     */
    @Test
    void withTheApiItReportsWhatIsRecordedNotWhatIsAcknowledged() throws Exception {
        String board = "cli-rec-" + Long.toString(System.nanoTime(), 36);
        try (RunningLog log = new RunningLog("cli-recorded")) {
            String[] base = {"--bootstrap", stack.kafkaBootstrap(), "--topic", log.topic, "--api", log.api.baseUrl()};
            int code = run("", concat(base, line(board, 1)));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, o + err.toString(StandardCharsets.UTF_8));
            assertTrue(o.contains("cli-1 recorded on board " + board + " as record 0"), o);
            assertTrue(o.contains("recorded 1, not recorded 0"), o);

            // a delivery ID holding '/', '?' and '&' is looked up as it is (a query parameter, not a path)
            out.reset();
            err.reset();
            String slashed = line(board, 3).replace("\"cli-3\"", "\"ballots/area 7/cli-3?x=1&y\"");
            code = run("", concat(base, slashed));
            o = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, o + err.toString(StandardCharsets.UTF_8));
            assertTrue(o.contains("ballots/area 7/cli-3?x=1&y recorded on board " + board + " as record 1"), o);

            out.reset();
            err.reset();
            String squat = line(board, 2).replace("\"cli-2\"", "\"seal:" + board + "\"");
            code = run("", concat(base, "--timeout", "3", squat));
            o = out.toString(StandardCharsets.UTF_8);
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(1, code, o + e);
            assertTrue(o.contains("acknowledged 1, failed 0") && o.contains("recorded 0, not recorded 1"), o);
            assertTrue(e.contains("seal:" + board + " is not recorded on board " + board), e);
            SealCommandTest.awaitOneReservedNameRefusal(log);
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
