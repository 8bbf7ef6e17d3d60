package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.Setting;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.launcher.MirrorCommand;
import org.electorallog.launcher.MonitorCommand;
import org.electorallog.launcher.SealCommand;
import org.electorallog.launcher.VerifyBoardCommand;
import org.electorallog.mirror.MirrorServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.query.PublishedVoterPage;
import org.electorallog.query.Role;
import org.electorallog.query.VoterLanguages;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.witness.FollowedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import picocli.CommandLine;

/**
 * Issue 68 item 4 on the embedded stack: a board of the dev log pushed to a real mirror by {@code
 * mirror push} from the query API as it grows and after its seal, then verified whole by {@code
 * verify-board --mirror} from the mirror's URL alone with a tlog-policy whose quorum is the mirror's
 * cosignatures of both kinds, followed by {@code monitor --mirror}, and a ballot checked by the
 * voter page the mirror serves (Chromium); a quorum the mirror cannot meet, and a copy with one
 * changed byte, are refused.
 */
class MirrorBoardTest {
    static final String BOARD = "mirror-" + Long.toString(System.nanoTime(), 36);
    static final Path WORK = Path.of("target/mirror-board").toAbsolutePath();

    static DevEnvironment env;
    static MirrorServer mirror;
    static final List<Cosigner.Key> KEYS = List.of(
            Cosigner.Key.generate("mirror.test.example/m1"), Cosigner.Key.generateMlDsa44("mirror.test.example/m1"));

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(
                SharedStack.get(), false, Path.of("target/stack/mirror-board"), 0, NoteSigner.generate("mirror.log"));
        MirrorServerState.delete(WORK);
        mirror = MirrorServer.start(
                "127.0.0.1",
                0,
                KEYS,
                FollowedLogs.parse(List.of(
                        Setting.ORIGIN_PREFIX.defaultValue + "* " + env.signer().verifierKey())),
                WORK.resolve("state"),
                true,
                Duration.ofSeconds(30),
                8,
                PublishedVoterPage.forMirror(
                        MirrorServer.PAGE, VoterLanguages.all(), Setting.ORIGIN_PREFIX.defaultValue));
    }

    @AfterAll
    static void stop() {
        if (mirror != null) {
            mirror.close();
        }
        if (env != null) {
            env.close();
        }
    }

    static String url() {
        return "http://127.0.0.1:" + mirror.port();
    }

    static String[] push(String... how) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new MirrorCommand.Push(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute(java.util.stream.Stream.concat(
                                java.util.Arrays.stream(how),
                                java.util.stream.Stream.of(
                                        "--url",
                                        env.api().baseUrl(),
                                        "--board",
                                        BOARD,
                                        "--token",
                                        env.tokens().get(Role.OBSERVER)))
                        .toArray(String[]::new));
        return new String[] {
            Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    static String[] verify(Path policy) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new VerifyBoardCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute(
                        "--mirror",
                        url(),
                        "--origin",
                        Setting.ORIGIN_PREFIX.defaultValue + BOARD,
                        "--policy",
                        policy.toString());
        return new String[] {
            Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    static Path policy(String name, String quorumLines, String... witnessKeys) throws Exception {
        StringBuilder text =
                new StringBuilder("log ").append(env.signer().verifierKey()).append('\n');
        for (int i = 0; i < witnessKeys.length; i++) {
            text.append("witness w")
                    .append(i)
                    .append(' ')
                    .append(witnessKeys[i])
                    .append('\n');
        }
        text.append(quorumLines);
        Path p = WORK.resolve(name);
        Files.writeString(p, text.toString());
        return p;
    }

    @Test
    void aBoardPushedAsItGrowsIsVerifiedWholeFromTheMirrorAlone() throws Exception {
        ElectionStatements s = new ElectionStatements(BOARD, 68);
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            for (int v = 0; v < 60; v++) {
                for (Statement st : s.voter(v)) {
                    producer.publish(st).get();
                }
            }
        }
        VoterPageTest.awaitWitnessed(env, BOARD, 300);
        String[] first = push("--mirror", url());
        assertEquals("0", first[0], first[1] + first[2]);
        assertTrue(
                first[1].contains("held at size 300 (300 entries sent), cosigned by mirror.test.example/m1 "
                        + "(Ed25519), mirror.test.example/m1 (ML-DSA-44)"),
                first[1]);
        try (ElectoralLogProducer sealer = ElectoralLogProducer.builder(
                        SharedStack.get().kafkaBootstrap())
                .senderKey(env.signer().statementKey())
                .build()) {
            sealer.publish(s.vote("late-voter", ElectionStatements.EPOCH_MILLIS + 1))
                    .get();
            sealer.publish(SealCommand.statement(BOARD, "back-office", null, ElectionStatements.EPOCH_MILLIS + 2))
                    .get();
        }
        VoterPageTest.awaitWitnessed(env, BOARD, 302);
        // the second push goes to the mirrors a policy names: its witness is asked and skipped
        String witnessUrl = "http://127.0.0.1:" + env.witness().port();
        Path named = WORK.resolve("policy-named");
        Files.writeString(
                named,
                "log " + env.signer().verifierKey() + "\n"
                        + "witness local " + env.witness().verifierKey() + " " + witnessUrl + "\n"
                        + "witness mirror " + KEYS.get(0).verifierKey() + " " + url() + "\n"
                        + "group both all local mirror\nquorum both\n");
        String[] second = push("--policy", named.toString());
        assertEquals("0", second[0], second[1] + second[2]);
        assertTrue(second[1].contains("policy: " + witnessUrl + " does not mirror"), second[1]);
        assertTrue(second[1].contains("mirror " + url() + ": "), second[1]);
        assertTrue(second[1].contains("held at size 302 (2 entries sent)"), second[1]);

        // the mirror's two cosignatures meet a quorum that needs both
        Path both = policy(
                "policy-both",
                "group mirror all w0 w1\nquorum mirror\n",
                KEYS.get(0).verifierKey(),
                KEYS.get(1).verifierKey());
        String[] whole = verify(both);
        assertEquals("0", whole[0], whole[1] + whole[2]);
        assertTrue(whole[1].contains("302 leaves (302 entries hashed)"), whole[1]);
        assertTrue(whole[1].contains("sealed at size 302"), whole[1]);
        assertTrue(whole[1].contains("witnessed: the quorum vouches for the board up to size 302"), whole[1]);

        // the monitor follows the board from the mirror alone: nothing to report
        ByteArrayOutputStream monitorOut = new ByteArrayOutputStream();
        ByteArrayOutputStream monitorErr = new ByteArrayOutputStream();
        int looked = new CommandLine(new MonitorCommand(
                        new PrintStream(monitorOut, true, StandardCharsets.UTF_8),
                        new PrintStream(monitorErr, true, StandardCharsets.UTF_8)))
                .execute(
                        "--once",
                        "--mirror",
                        url(),
                        "--board",
                        BOARD,
                        "--policy",
                        both.toString(),
                        "--state",
                        WORK.resolve("monitor-state").toString());
        assertEquals(0, looked, monitorOut + " " + monitorErr);
        assertTrue(monitorOut.toString().contains("monitor: 0 finding(s)"), monitorOut.toString());

        // a quorum that also needs a cosigner the mirror's checkpoint does not carry (the log's witness)
        Path more = policy(
                "policy-more",
                "group all3 all w0 w1 w2\nquorum all3\n",
                KEYS.get(0).verifierKey(),
                KEYS.get(1).verifierKey(),
                env.witness().verifierKey());
        String[] unmet = verify(more);
        assertEquals("1", unmet[0], unmet[1] + unmet[2]);

        // the voter page the mirror serves checks a ballot against the mirror's copy alone, with the
        // mirror's two cosignatures (Ed25519 and ML-DSA-44) as the quorum
        Path copy = WORK.resolve("state")
                .resolve(Hex.encode(
                        Hashes.sha256((Setting.ORIGIN_PREFIX.defaultValue + BOARD).getBytes(StandardCharsets.UTF_8))));
        String page = url() + "/" + MirrorServer.PAGE + "/?board=" + BOARD + "&record=5#log_key="
                + URLEncoder.encode(env.signer().verifierKey(), StandardCharsets.UTF_8) + "&witness_key="
                + URLEncoder.encode(KEYS.get(0).verifierKey(), StandardCharsets.UTF_8) + "&witness_key="
                + URLEncoder.encode(KEYS.get(1).verifierKey(), StandardCharsets.UTF_8) + "&quorum=2";
        try (VoterBrowser chromium = VoterBrowser.open(Path.of("target/voter-page"))) {
            String[] good = chromium.checkAt(page, "mirror-verified", null);
            assertEquals("verified", good[0], good[1]);
            String steps = chromium.driver.findElement(By.id("steps")).getText();
            assertTrue(
                    steps.contains("cosigned it (quorum 2)") && steps.contains("built here from the published tiles"),
                    steps);
            // the mirror's first tile changed: record 5's sibling is another hash
            Path tile = copy.resolve("tile/0/000");
            byte[] original = Files.readAllBytes(tile);
            byte[] changedTile = original.clone();
            changedTile[4 * 32] ^= 1;
            Files.write(tile, changedTile);
            String[] bad = chromium.checkAt(page, "mirror-changed-tile", null);
            assertEquals("failed", bad[0], bad[1]);
            Files.write(tile, original);
        }

        // one changed byte in the mirror's copy of an entry: verify-board finds it
        Path bundle = copy.resolve("tile/entries/000");
        byte[] bytes = Files.readAllBytes(bundle);
        bytes[bytes.length / 2] ^= 1;
        Files.write(bundle, bytes);
        String[] changed = verify(both);
        assertEquals("1", changed[0], changed[1] + changed[2]);
    }

    /** Removes a directory tree left by an earlier run. */
    static final class MirrorServerState {
        private MirrorServerState() {}

        static void delete(Path dir) throws java.io.IOException {
            if (!Files.exists(dir)) {
                Files.createDirectories(dir);
                return;
            }
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            Files.createDirectories(dir);
        }
    }
}
