package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.launcher.SealCommand;
import org.electorallog.launcher.VerifyBoardCommand;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.Role;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import picocli.CommandLine;

/**
 * {@code verify-board --report} (issue 69 item 4) on a sealed board of the dev environment, built in
 * three witnessed steps over four hours of statement time: the page says what was verified, holds
 * the records per hour and kind that were published, the checkpoints of each step with the
 * witness's times, the seal, and a command that, run again, verifies the same board; in Chromium it
 * opens from the file with nothing fetched, draws both charts and passes axe-core's WCAG A/AA rules
 * on a phone and a desktop window. A failed verification writes its problems into the report.
 */
class BoardReportTest {
    static final Path OUT = Path.of("target/board-report");
    static final String BOARD = "report-" + Long.toString(System.nanoTime(), 36);
    static final long HOUR = 3_600_000L;
    static final long T0 = ElectionStatements.EPOCH_MILLIS;

    static DevEnvironment env;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(
                SharedStack.get(), false, Path.of("target/stack/board-report"), 0, NoteSigner.generate("report.log"));
        ElectionStatements s = new ElectionStatements(BOARD, 17);
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            for (int v = 0; v < 3; v++) { // hour 0: 12 sign-in events and 3 votes
                for (Statement st : s.voter(v)) {
                    producer.publish(st).get();
                }
            }
            VoterPageTest.awaitWitnessed(env, BOARD, 15);
            for (int i = 0; i < 4; i++) { // hour 1: 4 votes
                producer.publish(s.vote("late-voter-" + i, T0 + HOUR + i)).get();
            }
        }
        VoterPageTest.awaitWitnessed(env, BOARD, 19);
        try (ElectoralLogProducer sealer = ElectoralLogProducer.builder(
                        SharedStack.get().kafkaBootstrap())
                .senderKey(env.signer().statementKey())
                .build()) { // hour 3: the seal
            sealer.publish(SealCommand.statement(BOARD, "back-office", null, T0 + 3 * HOUR))
                    .get();
        }
        VoterPageTest.awaitWitnessed(env, BOARD, 20);
    }

    @AfterAll
    static void stop() {
        if (env != null) {
            env.close();
        }
    }

    static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new VerifyBoardCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute(args);
        return new String[] {
            Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    /** The words of a command line the report shows (its quoting: single quotes, as VerifyBoardCommand writes). */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(command);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return out;
    }

    static String html(String s) {
        return s.replace("&#39;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
    }

    @Test
    void theReportSaysWhatWasVerifiedShowsTheRecordAndRepeats() throws Exception {
        Path file = OUT.resolve(BOARD + ".html").toAbsolutePath();
        // an observer's token reads the entries (their times and kinds) and the signature bundles
        String token = env.tokens().get(Role.OBSERVER);
        String[] r = run(
                "--url", env.api().baseUrl(),
                "--board", BOARD,
                "--token", token,
                "--log-key", env.signer().verifierKey(),
                "--witness-key", env.witness().verifierKey(),
                "--quorum", "1",
                "--report", file.toString());
        assertEquals("0", r[0], r[1] + r[2]);
        assertTrue(r[1].contains("report: " + file), r[1]);
        String page = Files.readString(file);
        assertTrue(page.contains("<strong>Verified.</strong>"), "the verdict");
        assertTrue(page.contains("Board " + BOARD + " at 20 records"), "the board and its size");
        assertTrue(
                page.contains(env.signer().verifierKey())
                        && page.contains(env.witness().verifierKey()),
                "the keys");
        assertTrue(page.contains("20 of 20 entries read"), "the entries check's count");
        // records per hour and kind: a row per hour, the kinds in columns (BOARD_SEALED, CAST_VOTE, IDP_USER_EVENT)
        assertTrue(
                page.contains(
                        "<tr><th scope=\"row\">2026-01-01 00:00 UTC</th><td>0</td><td>3</td><td>12</td><td>15</td></tr>"),
                page);
        assertTrue(
                page.contains(
                        "<tr><th scope=\"row\">2026-01-01 01:00 UTC</th><td>0</td><td>4</td><td>0</td><td>4</td></tr>"),
                page);
        assertTrue(
                page.contains(
                        "<tr><th scope=\"row\">2026-01-01 03:00 UTC</th><td>1</td><td>0</td><td>0</td><td>1</td></tr>"),
                page);
        // the checkpoints of each step, each cosigned by the witness at a time it states
        for (String size : List.of("15", "19", "20")) {
            assertTrue(
                    Pattern.compile("<tr><th scope=\"row\">" + size
                                    + "</th><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</td></tr>")
                            .matcher(page)
                            .find(),
                    "checkpoint " + size + " with its cosignature's time");
        }
        assertTrue(page.contains("The board was sealed at 20 records"), "the seal");
        assertFalse(page.contains("src=\"http") || page.contains("href=\"http"), "nothing fetched from elsewhere");

        // the command on the page verifies the same board again
        Matcher command =
                Pattern.compile("<pre><code>(.*?)</code></pre>", Pattern.DOTALL).matcher(page);
        assertTrue(command.find());
        List<String> again = words(html(command.group(1)));
        assertFalse(page.contains(token), "the token is no part of the page");
        assertTrue(again.contains("\"$ELECTORAL_LOG_TOKEN\""), again.toString());
        again.replaceAll(w -> w.equals("\"$ELECTORAL_LOG_TOKEN\"") ? token : w);
        assertEquals(List.of("electoral-log", "verify-board"), again.subList(0, 2));
        String[] repeated = run(again.subList(2, again.size()).toArray(String[]::new));
        assertEquals("0", repeated[0], repeated[1] + repeated[2]);
        assertTrue(repeated[1].contains("sealed at size 20"), repeated[1]);

        // in a browser: from the file, nothing fetched, both charts drawn, no serious accessibility violation
        try (VoterBrowser b = VoterBrowser.open(OUT)) {
            for (Dimension window : List.of(new Dimension(390, 844), new Dimension(1280, 900))) {
                b.driver.manage().window().setSize(window);
                b.driver.get(file.toUri().toString());
                JavascriptExecutor js = (JavascriptExecutor) b.driver;
                assertEquals(0L, js.executeScript("return performance.getEntriesByType('resource').length"));
                assertEquals(
                        3L,
                        js.executeScript(
                                "return Chart.getChart(document.getElementById('chart-per-hour')).data.datasets.length"));
                assertEquals(
                        1L,
                        js.executeScript(
                                "return Chart.getChart(document.getElementById('chart-checkpoints')).data.datasets.length"));
                assertEquals(
                        List.of(),
                        b.accessibilityProblems("report-" + window.getWidth(), new java.util.LinkedHashMap<>()),
                        "serious or critical violations at " + window);
            }
        }
    }

    @Test
    void aFailedVerificationWritesItsProblems() throws Exception {
        Path file = OUT.resolve(BOARD + "-stranger.html").toAbsolutePath();
        String stranger = Cosigner.Key.generate("stranger.witness").verifierKey();
        String[] r = run(
                "--url",
                env.api().baseUrl(),
                "--board",
                BOARD,
                "--log-key",
                env.signer().verifierKey(),
                "--witness-key",
                stranger,
                "--quorum",
                "1",
                "--report",
                file.toString());
        assertEquals("1", r[0], r[1] + r[2]);
        String page = Files.readString(file);
        assertTrue(page.contains("NOT verified:"), "the verdict");
        assertTrue(page.contains("<h2 id=\"problems\">Problems</h2>"), "the problems");
        assertTrue(html(page).contains("the quorum is"), Arrays.toString(r));
    }
}
