package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.TlogProof;
import org.electorallog.infra.NginxServer;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.publisher.Publisher;
import org.electorallog.query.PublishedVoterPage;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.statement.HeadChain;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * HEADS witness mode end to end (issue 45 item 3, docs/witnesses.md): the local witness cosigns only
 * the heads board, and every client proves a record through the chain record -> board checkpoint ->
 * heads entry -> cosigned heads checkpoint: {@code electoral-log verify} on a tlog-proof bundle,
 * {@code verify-board} on a sealed board, and the voter page in Chromium. A heads entry changed
 * behind the API breaks each.
 */
class HeadsChainTest {
    static final String BOARD = "heads-chain-" + Long.toString(System.nanoTime(), 36);
    static final String SEALED = BOARD + "-sealed";
    static final int VOTES = 12;
    static final ObjectMapper JSON = new ObjectMapper();
    static DevEnvironment env;
    static VoterBrowser chromium;
    static LogClient client;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(
                SharedStack.get(),
                false,
                Path.of("target/stack/heads-chain"),
                0,
                NoteSigner.generate("heads-chain.electoral-log.local"),
                null,
                true);
        client = new LogClient(env.api().baseUrl());
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            ElectionStatements votes = new ElectionStatements(BOARD, 3);
            for (int i = 0; i < VOTES; i++) {
                // record 7 is the dev voter's: the ballot locator hands it its chained bundle
                producer.publish(votes.vote(i == 7 ? DevEnvironment.DEV_VOTER : "heads-voter-" + i, 1_000 + i))
                        .get();
            }
            ElectionStatements sealed = new ElectionStatements(SEALED, 4);
            for (int i = 0; i < 3; i++) {
                producer.publish(sealed.vote("sealed-voter-" + i, 1_000 + i)).get();
            }
        }
        // the seal is the log's own statement, signed with its key (decision 130)
        try (ElectoralLogProducer sealer = ElectoralLogProducer.builder(
                        SharedStack.get().kafkaBootstrap())
                .senderKey(env.signer().statementKey())
                .build()) {
            sealer.publish(org.electorallog.launcher.SealCommand.statement(SEALED, "back-office", null, 2_000))
                    .get();
        }
        awaitLinked(BOARD, VOTES);
        awaitLinked(SEALED, 4);
        chromium = VoterBrowser.open(Path.of("target/voter-page"));
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (env != null) {
            env.close();
        }
    }

    /** Polls the public API until the board's heads link names its checkpoint at {@code size}. */
    static void awaitLinked(String board, long size) throws Exception {
        Poll.until(
                Duration.ofMinutes(1),
                Duration.ofMillis(100),
                "board " + board + " at " + size + " in a witnessed heads checkpoint",
                () -> {
                    var r = client.send("/boards/" + board + "/heads-link");
                    return r.statusCode() == 200
                            ? Checkpoint.open(
                                            JSON.readTree(r.body())
                                                    .get("checkpoint")
                                                    .asText(),
                                            logKeys())
                                    .size()
                            : -1L;
                },
                s -> s == size);
    }

    static List<NoteVerifier> logKeys() {
        return List.of(NoteVerifier.parse(env.signer().verifierKey()));
    }

    @Test
    void verifyChecksAProofBundleThroughTheHeadsBoard() throws Exception {
        assertEquals(
                404,
                client.send("/boards/" + BOARD + "/checkpoint?witnessed=true").statusCode(),
                "no board is witnessed on its own in HEADS mode");
        String bundle = client.get("/boards/" + BOARD + "/records/5/proof-bundle");
        assertTrue(HeadChain.isChained(TlogProof.parse(bundle)), bundle);
        Path dir = Files.createDirectories(Path.of("target/heads-chain"));
        Path file = Files.writeString(dir.resolve("record-5.tlog-proof"), bundle);
        String leaf =
                Base64.getEncoder().encodeToString(client.proof(BOARD, 5, null).leafHash());
        String[] ok = verify(file, leaf);
        assertEquals("0", ok[0], ok[1] + ok[2]);
        assertTrue(ok[1].contains("entered on the heads board " + Setting.ORIGIN_PREFIX.defaultValue + "heads"), ok[1]);
        assertTrue(ok[1].contains("1 witness(es) cosigned: witness.electoral-log.local"), ok[1]);
        // the bundle names the policy the API serves beside the checkpoint (decision 150)
        String served = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(env.api().baseUrl() + "/boards/" + BOARD + "/policy"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(
                ok[1].contains("verify: the bundle names the policy sha256:" + ProofExtra.policyName(served)), ok[1]);

        // the heads entry changed in the bundle: it no longer names the board's checkpoint
        TlogProof p = TlogProof.parse(bundle);
        TlogProof head = TlogProof.parse(new String(ProofExtra.link(p.extra()), StandardCharsets.UTF_8));
        byte[] entry = head.extra().clone();
        entry[entry.length - 1] ^= 1;
        String forged = HeadChain.link(
                        new TlogProof(null, p.index(), p.inclusion(), p.checkpointNote()),
                        entry,
                        new TlogProof(null, head.index(), head.inclusion(), head.checkpointNote()))
                .format();
        String[] bad = verify(Files.writeString(dir.resolve("forged.tlog-proof"), forged), leaf);
        assertEquals("1", bad[0], bad[1] + bad[2]);
        assertTrue(bad[2].contains("NOT VERIFIED: the heads link: "), bad[2]);
    }

    @Test
    void theBallotLocatorHandsAVoterTheirBundleThroughTheHeadsBoard() throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                        env.api().baseUrl() + "/boards/" + BOARD + "/ballots?election_id=election-0"))
                                .header(
                                        "Authorization",
                                        "Bearer " + env.tokens().get(org.electorallog.query.Role.VOTER))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode ballot = JSON.readTree(r.body()).get("ballots").get(0);
        assertEquals(7, ballot.get("id").asLong(), r.body());
        TlogProof bundle = TlogProof.parse(ballot.get("proof_bundle").asText());
        assertTrue(HeadChain.isChained(bundle), ballot.toString());
        HeadChain.Verified v = HeadChain.verify(
                bundle,
                client.proof(BOARD, 7, null).leafHash(),
                Setting.ORIGIN_PREFIX.defaultValue + BOARD,
                Setting.ORIGIN_PREFIX.defaultValue + HeadsBoard.NAME,
                logKeys(),
                List.of(Cosigner.Verifier.parse(env.witness().verifierKey())),
                1);
        assertEquals(VOTES, v.board().size());
    }

    @Test
    void theUnwitnessedRecordsGaugeCountsTheHeadsBoard() throws Exception {
        String metrics = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(env.api().baseUrl() + "/metrics"))
                                .header("Authorization", "Bearer " + env.adminToken())
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        List<String> gauge = metrics.lines()
                .filter(l -> l.startsWith("electoral_log_board_unwitnessed_records{"))
                .toList();
        // no board is cosigned on its own here: without the heads board every record would count
        assertTrue(
                gauge.contains("electoral_log_board_unwitnessed_records{board=\"" + BOARD + "\"} 0.0"),
                gauge.toString());
        assertTrue(
                gauge.contains("electoral_log_board_unwitnessed_records{board=\"" + SEALED + "\"} 0.0"),
                gauge.toString());
    }

    private static String[] verify(Path file, String leaf) {
        return VerifyCli.of(env, BOARD, leaf, file.toString());
    }

    @Test
    void verifyBoardVerifiesASealedBoardThroughTheHeadsBoard() throws Exception {
        TlogFiles api = TlogFiles.api(env.api().baseUrl(), SEALED, null);
        Verification v = BoardVerifier.verify(api, options(SEALED), (d, t, s) -> {});
        assertTrue(v.verified(), v.problems().toString());
        assertEquals(4, v.sealedSize());
        assertEquals(4, v.witnessedSize(), "the quorum vouches for the whole sealed board");

        // the same files without the heads link: nothing cosigned the board's checkpoint
        TlogFiles withoutLink = new TlogFiles() {
            @Override
            public byte[] get(String path) throws IOException {
                return api.get(path);
            }

            @Override
            public byte[] headsLink() {
                return null;
            }
        };
        Verification unwitnessed = BoardVerifier.verify(withoutLink, options(SEALED), (d, t, s) -> {});
        assertFalse(unwitnessed.verified());
        assertTrue(
                unwitnessed.problems().toString().contains("valid cosignature(s) of the witnesses given"),
                unwitnessed.problems().toString());
    }

    private static VerifyOptions options(String board) {
        return new VerifyOptions(
                logKeys(),
                Setting.ORIGIN_PREFIX.defaultValue + board,
                List.of(Cosigner.Verifier.parse(env.witness().verifierKey())),
                1,
                List.of());
    }

    @Test
    void theVoterPageVerifiesThroughTheHeadsBoardAndFailsOnAChangedHeadsEntry() throws Exception {
        String[] good = chromium.check(env.api().baseUrl(), "board=" + BOARD + "&record=5", "heads-verified", null);
        assertEquals("verified", good[0], good[1]);
        String steps = chromium.driver.findElement(By.id("steps")).getText();
        assertTrue(steps.contains("of the heads board " + Setting.ORIGIN_PREFIX.defaultValue + "heads"), steps);
        assertTrue(steps.contains("1 of 1 witness cosigned the heads checkpoint (quorum 1)"), steps);

        // the server changes the heads entry it shows: its leaf is no longer the one the witnesses cosigned
        JsonNode link = JSON.readTree(client.get("/boards/" + BOARD + "/heads-link"));
        long entry = link.get("entry_index").asLong();
        flipLastByte(entry);
        try {
            String[] bad = chromium.check(env.api().baseUrl(), "board=" + BOARD + "&record=5", "heads-forged", null);
            assertEquals("failed", bad[0], bad[1]);
            assertTrue(bad[1].contains("heads entry " + entry + " does not lead to the cosigned heads root"), bad[1]);
        } finally {
            flipLastByte(entry);
        }
    }

    @Test
    void aStaticPublicationCarriesTheHeadsLink() throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "heads-static-")
                .toAbsolutePath();
        Path dir = work.resolve("published");
        DatabaseLogin db = SharedStack.get().database();
        try (Publisher publisher = Publisher.open(new Publisher.Settings(db, dir, Duration.ofSeconds(1), false))) {
            publisher.publish(BOARD);
            publisher.publish(SEALED);
            publisher.writePage(
                    PublishedVoterPage.files(Publisher.PAGE_DIR, org.electorallog.query.VoterLanguages.all()));
        }
        assertTrue(Files.exists(dir.resolve(SEALED).resolve("heads-link")), "the publisher wrote the heads link");
        try (NginxServer nginx =
                NginxServer.start(Path.of("../infra/deploy/nginx-tiles.conf"), dir, work.resolve("nginx"))) {
            Verification v = BoardVerifier.verify(
                    TlogFiles.url(nginx.baseUrl() + "/" + SEALED), options(SEALED), (d, t, s) -> {});
            assertTrue(v.verified(), v.problems().toString());
            assertEquals(4, v.witnessedSize(), "the quorum vouches for the sealed board through the published link");

            String page = nginx.baseUrl() + "/" + Publisher.PAGE_DIR + "/?board=" + BOARD + "&record=5#log_key="
                    + java.net.URLEncoder.encode(env.signer().verifierKey(), StandardCharsets.UTF_8) + "&witness_key="
                    + java.net.URLEncoder.encode(env.witness().verifierKey(), StandardCharsets.UTF_8) + "&quorum=1";
            String[] good = chromium.checkAt(page, "heads-static-verified", null);
            assertEquals("verified", good[0], good[1]);
            String steps = chromium.driver.findElement(By.id("steps")).getText();
            assertTrue(steps.contains("of the heads board"), steps);
            assertTrue(steps.contains("built here from the published tiles"), steps);
        }
    }

    /** Flips the last byte of heads entry {@code id} in the projection, as a lying server would. */
    private static void flipLastByte(long id) throws Exception {
        DatabaseLogin db = SharedStack.get().database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                PreparedStatement ps =
                        c.prepareStatement("UPDATE records SET stored_statement = set_byte(stored_statement, "
                                + "length(stored_statement) - 1, get_byte(stored_statement, length(stored_statement) - 1) # 1) "
                                + "WHERE board_id = (SELECT board_id FROM boards WHERE name = ?) AND id = ?")) {
            ps.setString(1, HeadsBoard.NAME);
            ps.setLong(2, id);
            assertEquals(1, ps.executeUpdate());
        } catch (java.sql.SQLException e) {
            throw new IOException(e);
        }
    }
}
