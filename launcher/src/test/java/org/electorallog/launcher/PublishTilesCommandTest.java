package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code electoral-log publish-tiles --once} against a real projection: the board is written into
 * the directory and {@code verify-board --dir} verifies it from there.
 */
class PublishTilesCommandTest {
    @Test
    void oneRoundPublishesABoardThatVerifiesFromTheDirectory() throws Exception {
        String board = "tiles-" + Long.toString(System.nanoTime(), 36);
        ElectionStatements made = new ElectionStatements(board, 7);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "tiles-");
        try (RunningLog log = new RunningLog("publish-tiles")) {
            for (int i = 0; i < 5; i++) {
                log.producer.publish(made.vote("voter-" + i, 1_000 + i)).get();
            }
            LogEndpoint api = new LogEndpoint(log.api.baseUrl(), null);
            Poll.until(Duration.ofMinutes(1), board + " checkpointed at 5", () -> {
                String note = api.checkpoint(board);
                return note != null && note.contains("\n5\n");
            });
            PublishTilesCommand publish = new PublishTilesCommand();
            publish.environment = Map.of(
                    Setting.JDBC_URL.env, log.settings.login().jdbcUrl(),
                    Setting.DB_USER.env, log.settings.login().user(),
                    Setting.DB_PASSWORD.env, log.settings.login().password());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            publish.out = new PrintStream(out, true, StandardCharsets.UTF_8);
            // the rule the checkpoints are witnessed by, as the API serves it, published beside them (issue 68 item 3)
            Path policy = dir.resolveSibling(dir.getFileName() + ".policy");
            Files.writeString(
                    policy,
                    WitnessPolicy.NONE
                            .rule()
                            .withLogs(List.of(
                                    NoteVerifier.parse(log.settings.signer().verifierKey())))
                            .text());
            assertEquals(
                    0,
                    new CommandLine(publish).execute("--dir", dir.toString(), "--once", "--policy", policy.toString()),
                    out.toString());
            assertEquals(
                    Files.readString(policy),
                    Files.readString(dir.resolve(board).resolve("policy")));
            assertTrue(out.toString().contains(board + ": checkpoint 5 (published before: 0)"), out.toString());
            // a file that is no policy is refused with its reason
            Path bad = dir.resolveSibling(dir.getFileName() + ".bad-policy");
            Files.writeString(bad, "log not-a-key\nquorum none\n");
            out.reset();
            assertEquals(
                    2, new CommandLine(publish).execute("--dir", dir.toString(), "--once", "--policy", bad.toString()));
            assertTrue(out.toString().startsWith("publish-tiles: --policy " + bad + ": "), out.toString());

            ByteArrayOutputStream verified = new ByteArrayOutputStream();
            int exit = new CommandLine(new VerifyBoardCommand(
                            new PrintStream(verified, true, StandardCharsets.UTF_8),
                            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                    .execute(
                            "--dir",
                            dir.resolve(board).toString(),
                            "--policy",
                            dir.resolve(board).resolve("policy").toString(),
                            "--report",
                            dir.resolve("report.html").toString());
            assertEquals(0, exit, verified.toString());
            assertTrue(verified.toString().startsWith("verified: 5 leaves"), verified.toString());
            // the report from a publication (issue 69 item 4): what it read, and that it keeps no history
            String report = Files.readString(dir.resolve("report.html"));
            assertTrue(report.contains("<strong>Verified.</strong> Board " + board + " at 5 records"), report);
            assertTrue(
                    report.contains("<dt>Read from</dt><dd>the directory "
                            + dir.resolve(board).toAbsolutePath()),
                    report);
            assertTrue(report.contains("the source keeps no history and none was given"), report);
        }
    }
}
