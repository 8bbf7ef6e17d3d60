package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.infra.SharedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.query.Role;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The voter page in a real headless Chromium (Debian's chromium and chromium-driver; .ci/run
 * installs them) against the dev environment: the projector, one local witness, the query API. The
 * page verifies in the browser; the server here is made to lie, as a compromised one would, by
 * changing what the database holds: one byte of the proof, a checkpoint signed by another key, a
 * missing cosignature. Each must show as a failure. A screenshot of every state goes to
 * target/voter-page/.
 */
class VoterPageTest {
    static final Path SHOTS = Path.of("target/voter-page");
    static final String BOARD = "voter-page-" + Long.toString(System.nanoTime(), 36);
    static final String ELECTION = "election-0";
    /** A board of three votes and its seal (issue 42): the page says voting closed on it. */
    static final String SEALED = BOARD + "-sealed";
    /** A board in the committed form (issue 46), one of whose votes is the dev voter's. */
    static final String COMMITTED = BOARD + "-committed";

    static DevEnvironment env;
    static VoterBrowser chromium;
    static WebDriver browser;
    static PublishResult receipt;
    static long size;

    @BeforeAll
    static void start() throws Exception {
        env = DevEnvironment.start(
                SharedStack.get(),
                false,
                Path.of("target/stack/voter-page"),
                0,
                // both kinds of signature (decision 146): the local witness then cosigns with both too
                NoteSigner.generate("voter-page.electoral-log.local")
                        .withPostQuantum(Cosigner.Key.generateMlDsa44("voter-page.electoral-log.local")));
        List<Statement> election = new ArrayList<>(new ElectionStatements(BOARD, 7).election(20));
        // one of the voters is the dev voter token's user: the signed-in check finds their ballot
        for (int i = 0; i < election.size(); i++) {
            Statement s = election.get(i);
            if (s.getKind() == StatementKind.CAST_VOTE && s.getElectionId().equals(ELECTION)) {
                election.set(
                        i,
                        Statement.newBuilder(s)
                                .setUserId(DevEnvironment.DEV_VOTER)
                                .build());
                break;
            }
        }
        List<CompletableFuture<PublishResult>> acks = new ArrayList<>();
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            for (Statement s : election) {
                acks.add(producer.publish(s));
            }
        }
        for (int i = acks.size() - 1; i >= 0; i--) {
            if (election.get(i).getKind() == StatementKind.CAST_VOTE) {
                receipt = acks.get(i).get(); // the voting service hands this receipt to the voter
                break;
            }
        }
        size = election.size();
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(SharedStack.get().kafkaBootstrap())) {
            ElectionStatements sealed = new ElectionStatements(SEALED, 9);
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
        DatabaseLogin db = SharedStack.get().database();
        try (HikariDataSource keys = ProjectionDatabase.pool(db.jdbcUrl(), db.user(), db.password(), 2, "voter-keys");
                ElectoralLogProducer producer = ElectoralLogProducer.builder(
                                SharedStack.get().kafkaBootstrap())
                        .committedForm(new SqlSealingKeys(keys))
                        .build()) {
            ElectionStatements committed = new ElectionStatements(COMMITTED, 11);
            for (int i = 0; i < 3; i++) {
                producer.publish(committed.vote(
                                i == 1 ? DevEnvironment.DEV_VOTER : "committed-voter-" + i, 1_796_000_000_000L + i))
                        .get();
            }
        }
        awaitWitnessed(BOARD, size);
        awaitWitnessed(SEALED, 4);
        awaitWitnessed(COMMITTED, 3);
        chromium = VoterBrowser.open(SHOTS);
        browser = chromium.driver;
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

    /** Waits (polling the public API) until a checkpoint of {@code records} records of {@code board} is witnessed. */
    static void awaitWitnessed(String board, long records) throws Exception {
        awaitWitnessed(env, board, records);
    }

    /** Waits (polling {@code env}'s public API) until a checkpoint of {@code records} records of {@code board} is witnessed. */
    static void awaitWitnessed(DevEnvironment env, String board, long records) throws Exception {
        LogClient client = new LogClient(env.api().baseUrl());
        Poll.until(
                Duration.ofMinutes(1),
                Duration.ofMillis(100),
                "checkpoint " + records + " witnessed",
                () -> {
                    var r = client.send("/boards/" + board + "/checkpoint?witnessed=true");
                    return r.statusCode() == 200
                            ? Checkpoint.parse(SignedNote.parse(r.body()).text())
                                    .size()
                            : -1L;
                },
                size -> size == records);
    }

    /** Opens the page, runs the check and returns the result's state and text; saves a screenshot. */
    static String[] check(String query, String shot, String token) throws Exception {
        return chromium.check(env.api().baseUrl(), query, shot, token);
    }

    static void until(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        chromium.until(condition, what);
    }

    static String leafHashParameter() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(receipt.leafHash());
    }

    @Test
    void aGoodBallotVerifiesByReceiptByRecordNumberAndSignedIn() throws Exception {
        String[] byReceipt = check("board=" + BOARD + "&leaf_hash=" + leafHashParameter(), "verified", null);
        assertEquals("verified", byReceipt[0], byReceipt[1]);
        assertTrue(byReceipt[1].contains("witness.electoral-log.local"), byReceipt[1]);
        assertTrue(byReceipt[1].contains("The leaf hash is the one on your receipt"), byReceipt[1]);
        assertTrue(byReceipt[1].contains("voter-page.electoral-log.local"), "names the log key: " + byReceipt[1]);

        String[] byId = check("board=" + BOARD + "&record=3", "verified-record-number", null);
        assertEquals("verified", byId[0], byId[1]);

        String[] signedIn = check(
                "board=" + BOARD + "&election=" + ELECTION,
                "verified-signed-in",
                env.tokens().get(Role.VOTER));
        assertEquals("verified", signedIn[0], signedIn[1]);
    }

    /**
     * Issue 46: signed in, the page checks the voter's own personal values against the commitments
     * in the statement whose leaf it proved; a server showing a value the log did not commit to fails.
     */
    @Test
    void signedInTheVotersOwnValuesOpenTheCommitmentsInTheirStatement() throws Exception {
        String token = env.tokens().get(Role.VOTER);
        String[] checked = check("board=" + COMMITTED + "&election=" + ELECTION, "personal-values-checked", token);
        assertEquals("verified", checked[0], checked[1]);
        assertTrue(checked[1].contains("each open their commitment"), checked[1]);
        assertTrue(checked[1].contains("user_id \"" + DevEnvironment.DEV_VOTER + "\""), checked[1]);
        assertTrue(checked[1].contains("body.country \"ES\""), checked[1]);

        // the stored opening of the country changed from ES to FR: bytes 21-22 of its stored form
        // (core ProjectedOpenings: 0x80, the count, body.country's code 0, its 16-byte salt, the value's length)
        String change = "UPDATE records SET openings = overlay(openings PLACING ?::bytea FROM 21 FOR 2)"
                + " WHERE user_id = ? AND board_id = (SELECT board_id FROM boards WHERE name = ?)"
                + " AND substring(openings FROM 21 FOR 2) = ?::bytea";
        assertEquals(1, update(change, "FR", DevEnvironment.DEV_VOTER, COMMITTED, "ES"));
        try {
            String[] changed = check("board=" + COMMITTED + "&election=" + ELECTION, "personal-values-changed", token);
            assertEquals("failed", changed[0], changed[1]);
            assertTrue(changed[1].contains("body.country as the server shows it (\"FR\") does not open"), changed[1]);
        } finally {
            assertEquals(1, update(change, "ES", DevEnvironment.DEV_VOTER, COMMITTED, "FR"));
        }
    }

    static int update(String sql, String... values) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setString(i + 1, values[i]);
            }
            return ps.executeUpdate();
        }
    }

    /**
     * Issue 41: the page says where its keys came from; keys pinned in the link's fragment (as the
     * election authority's site would link here) are used without this server's trust.json; and below
     * a quorum of 1 it never says "witnessed".
     */
    @Test
    void thePageSaysWhereItsKeysCameFromTakesPinnedKeysAndNeverSaysWitnessedWithoutAQuorum() throws Exception {
        // each check opens another query: a change of the fragment alone would not reload the page
        String[] served = check("board=" + BOARD + "&record=2", "verified-server-keys", null);
        assertEquals("verified", served[0], served[1]);
        assertTrue(served[1].contains("These keys came from this server (/voter/trust.json)"), served[1]);

        String logKey = URLEncoder.encode(env.signer().verifierKey(), StandardCharsets.UTF_8);
        String witnessKey = URLEncoder.encode(env.witness().verifierKey(), StandardCharsets.UTF_8);
        String[] pinned = check(
                "board=" + BOARD + "&record=4#log_key=" + logKey + "&witness_key=" + witnessKey + "&quorum=1",
                "verified-pinned-keys",
                null);
        assertEquals("verified", pinned[0], pinned[1]);
        assertTrue(pinned[1].contains("These keys came from the link you opened"), pinned[1]);

        String[] alone = check("board=" + BOARD + "&record=5#log_key=" + logKey + "&quorum=0", "unwitnessed", null);
        assertEquals("unwitnessed", alone[0], alone[1]);
        assertTrue(alone[1].contains("no witness vouched for it"), alone[1]);
        assertFalse(alone[1].contains("witnesses cosigned"), alone[1]);
        assertFalse(alone[1].toLowerCase(java.util.Locale.ROOT).contains("verified:"), alone[1]);
    }

    /**
     * Issue 68: pinned to the ML-DSA-44 keys alone, the log's and the witness's (type 0x06), the page
     * verifies the sealed board's checkpoint (which carries the log's ML-DSA-44 signature) and the
     * witness's subtree/v1 cosignature in Chromium with @noble/post-quantum; a witness key that did not
     * cosign leaves the quorum unmet.
     */
    @Test
    void thePageChecksMlDsa44SignaturesWithNoEd25519Key() throws Exception {
        String logKey = env.signer().verifierKeys().get(1);
        String witnessKey = env.witness().verifierKeys().get(1);
        String[] r = check(
                "board=" + SEALED + "&record=1#log_key=" + URLEncoder.encode(logKey, StandardCharsets.UTF_8)
                        + "&witness_key=" + URLEncoder.encode(witnessKey, StandardCharsets.UTF_8) + "&quorum=1",
                "verified-post-quantum-only",
                null);
        assertEquals("verified", r[0], r[1]);
        assertTrue(r[1].contains("witness.electoral-log.local (ML-DSA-44)"), r[1]);
        assertFalse(r[1].contains("did not load the page's ML-DSA-44 check"), r[1]);
        String stranger =
                Cosigner.Key.generateMlDsa44("witness.electoral-log.local").verifierKey();
        String[] refused = check(
                "board=" + SEALED + "&record=2#log_key=" + URLEncoder.encode(logKey, StandardCharsets.UTF_8)
                        + "&witness_key=" + URLEncoder.encode(stranger, StandardCharsets.UTF_8) + "&quorum=1",
                "failed-post-quantum-stranger",
                null);
        assertEquals("failed", refused[0], refused[1]);
    }

    @Test
    void aSealedBoardSaysVotingClosed() throws Exception {
        String[] r = check("board=" + SEALED + "&record=1", "verified-sealed-board", null);
        assertEquals("verified", r[0], r[1]);
        assertTrue(r[1].contains("Voting closed at 4 records"), r[1]);
        assertTrue(r[1].contains("the checkpoint above is its last"), r[1]);
    }

    @Test
    void aRecordBeyondTheWitnessedCheckpointIsNotVerifiedAndSaysWhy() throws Exception {
        String[] r = check("board=" + BOARD + "&record=" + (size + 5), "failed-beyond-witnessed", null);
        assertEquals("failed", r[0], r[1]);
        assertTrue(
                r[1].contains("is not in the latest checkpoint the witnesses cosigned (" + size + " records)"), r[1]);
    }

    @Test
    void theUnwitnessedRecordsGaugeSaysTheBoardIsCovered() throws Exception {
        // without an admin port, /metrics needs the admin token (issue 41)
        assertEquals(401, new LogClient(env.api().baseUrl()).send("/metrics").statusCode());
        String metrics = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(env.api().baseUrl() + "/metrics"))
                                .header("Authorization", "Bearer " + env.adminToken())
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(
                metrics.contains("electoral_log_board_unwitnessed_records{board=\"" + BOARD + "\"} 0.0"),
                metrics.lines().filter(l -> l.contains("unwitnessed")).toList().toString());
    }

    @Test
    void oneChangedByteInTheProofFails() throws Exception {
        // the first hash of record 3's inclusion proof is the leaf hash of record 2 (its sibling)
        String flip = "UPDATE tiles SET hashes = set_byte(hashes, 64, get_byte(hashes, 64) # 1) "
                + "WHERE board_id = (SELECT board_id FROM boards WHERE name = ?) AND level = 0 AND idx = 0";
        execute(flip);
        try {
            String[] r = check("board=" + BOARD + "&record=3", "failed-changed-proof", null);
            assertEquals("failed", r[0], r[1]);
            assertTrue(r[1].contains("does not lead to the root the witnesses cosigned"), r[1]);
        } finally {
            execute(flip); // flipping the same bit again restores it
        }
        assertEquals("verified", check("board=" + BOARD + "&record=3", "verified-after-restore", null)[0]);
    }

    @Test
    void aCheckpointSignedByAnotherKeyFails() throws Exception {
        String original = witnessedNote();
        SignedNote note = SignedNote.parse(original);
        // the same checkpoint body, signed by a key the voter does not trust
        String forged = SignedNote.sign(note.text(), NoteSigner.generate("voter-page.electoral-log.local"));
        setWitnessedNote(forged);
        try {
            String[] r = check("board=" + BOARD + "&leaf_hash=" + leafHashParameter(), "failed-other-key", null);
            assertEquals("failed", r[0], r[1]);
            assertTrue(r[1].contains("not signed by the log key you trust"), r[1]);
        } finally {
            setWitnessedNote(original);
        }
    }

    @Test
    void aMissingCosignatureFails() throws Exception {
        // the server leaves the witness's line out of the checkpoint it serves; the row stays, so the
        // witnessing loop (which goes by the rows) does not fetch the cosignature again meanwhile
        String blank = "UPDATE checkpoint_cosignatures SET line = '' "
                + "WHERE board_id = (SELECT board_id FROM boards WHERE name = ?) AND size = " + size;
        String restore = "UPDATE checkpoint_cosignatures SET line = ? "
                + "WHERE board_id = (SELECT board_id FROM boards WHERE name = ?) AND size = " + size
                + " AND witness = ?";
        // the witness cosigns with two keys (Ed25519 and ML-DSA-44): a row each
        java.util.Map<String, String> lines = new java.util.TreeMap<>();
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement("SELECT witness, line FROM checkpoint_cosignatures "
                        + "WHERE board_id = (SELECT board_id FROM boards WHERE name = ?) AND size = " + size)) {
            ps.setString(1, BOARD);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        assertEquals(2, lines.size(), "the witnessed checkpoint has the witness's two cosignatures");
        // the server's rule is a policy (the witness counts when both its keys cosigned): one line gone
        // fails, where "1 of the 2 keys" would have passed
        String mlDsa = lines.keySet().stream()
                .filter(w -> !w.equals(org.electorallog.core.WitnessPolicy.id(
                        Cosigner.Verifier.parse(env.witness().verifierKey()))))
                .findFirst()
                .orElseThrow();
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(restore)) {
            ps.setString(1, "");
            ps.setString(2, BOARD);
            ps.setString(3, mlDsa);
            assertEquals(1, ps.executeUpdate());
        }
        try {
            String[] half = check("board=" + BOARD + "&leaf_hash=" + leafHashParameter(), "failed-half-cosigned", null);
            assertEquals("failed", half[0], half[1]);
            assertTrue(half[1].contains("Only 1 of the 2 witnesses you trust cosigned"), half[1]);
            assertTrue(half[1].contains("the group witnesses (1 of"), half[1]);
        } finally {
            try (Connection c = connect();
                    PreparedStatement ps = c.prepareStatement(restore)) {
                ps.setString(1, lines.get(mlDsa));
                ps.setString(2, BOARD);
                ps.setString(3, mlDsa);
                assertEquals(1, ps.executeUpdate());
            }
        }
        execute(blank);
        try {
            String[] r =
                    check("board=" + BOARD + "&leaf_hash=" + leafHashParameter(), "failed-missing-cosignature", null);
            assertEquals("failed", r[0], r[1]);
            assertTrue(r[1].contains("Only 0 of the 2 witnesses you trust cosigned"), r[1]);
        } finally {
            for (java.util.Map.Entry<String, String> l : lines.entrySet()) {
                try (Connection c = connect();
                        PreparedStatement ps = c.prepareStatement(restore)) {
                    ps.setString(1, l.getValue());
                    ps.setString(2, BOARD);
                    ps.setString(3, l.getKey());
                    assertEquals(1, ps.executeUpdate());
                }
            }
        }
    }

    /**
     * The page's own cosignature and log-signature checks, run in Chromium on a real checkpoint of the
     * transparency.dev staging CT log cosigned by three public witnesses (the one core's
     * CosignatureInteropTest uses): WebCrypto and our script against signatures others made.
     */
    @Test
    void thePagesChecksAcceptARealWitnessedCheckpointAndRefuseItChanged() throws Exception {
        browser.get(env.api().baseUrl() + "/voter");
        until(() -> "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-ready")), "page ready");
        String script = "const done = arguments[arguments.length - 1];"
                + "(async () => {"
                + "  const note = parseNote(arguments[0]);"
                + "  const log = await parseVkey(arguments[1], 1);"
                + "  const witnesses = await Promise.all(arguments[2].map((k) => parseVkey(k, 4)));"
                + "  await checkLogSignature(note, [log]);"
                + "  const c = await checkCosignatures(note, witnesses);"
                + "  return c.valid.map((w) => w.name + '@' + w.time.toISOString()).join(',') + '|' + c.invalid.join(',');"
                + "})().then(done, (e) => done('error: ' + e.message));";
        List<String> keys = List.of(
                "transparency.dev/DEV:witness-little-garden+d8042a87+BCtusOxINQNUTN5Oj8HObRkh2yHf/MwYaGX4CPdiVEPM",
                "witness1.smartit.nu/witness1+a48c820f+BPSFWg9G6KPiO7QPryYO5Xq4oYJJ+kAvLKLSimDhoxMO",
                "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2");
        String logKey = "arche2025h1.staging.ct.transparency.dev+ba2f06c0+AU0vHmlGCS/PdN8b2OaGmKprLI8HKM+dJ472xgFYh15f";
        org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) browser;
        assertEquals(
                "transparency.dev/DEV:witness-little-garden@2026-05-23T21:50:24.000Z,"
                        + "witness1.smartit.nu/witness1@2026-05-23T21:50:24.000Z,"
                        + "remora.n621.de@2026-05-23T21:50:24.000Z|",
                js.executeAsyncScript(script, REAL_CHECKPOINT, logKey, keys));
        String changed = REAL_CHECKPOINT.replace("\n1432088532\n", "\n1432088533\n");
        assertEquals(
                "error: The signature by the log key " + logKey + " on the checkpoint does not verify.",
                js.executeAsyncScript(script, changed, logKey, keys));
    }

    /**
     * The page's ML-DSA-44 checks in Chromium on a checkpoint signed here with both kinds by the log and
     * by a witness: each key alone verifies it, one changed byte in a signature line refuses it; and the
     * time the page takes to check a record's bundle with both kinds (both log signatures, both
     * cosignatures, a 25-hash inclusion proof), written to {@code dev/target/voter-page/post-quantum.json}
     * for perf/post-quantum (measured, not asserted).
     */
    @Test
    void thePagesMlDsa44ChecksAcceptTheSignaturesAndRefuseAChangedByte() throws Exception {
        browser.get(env.api().baseUrl() + "/voter");
        until(() -> "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-ready")), "page ready");
        org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) browser;
        until(
                () -> Boolean.TRUE.equals(js.executeScript("return typeof window.mlDsa44Verify === 'function'")),
                "pq.js loaded");
        NoteSigner log = NoteSigner.generate("pq.electoral-log.example")
                .withPostQuantum(Cosigner.Key.generateMlDsa44("pq.electoral-log.example"));
        Cosigner.Key witnessEd = Cosigner.Key.generate("witness.pq.example");
        Cosigner.Key witnessPq = Cosigner.Key.generateMlDsa44("witness.pq.example");
        SignedNote signed = SignedNote.parse(
                new org.electorallog.core.Checkpoint("pq.electoral-log.example/board", 20_000_000L, new byte[32])
                        .sign(log, true, 1_800_000_000L));
        String note = signed.withSignature(witnessEd.cosign(signed.text(), 1_800_000_001L))
                .withSignature(witnessPq.cosign(signed.text(), 1_800_000_002L))
                .serialize();
        String script = "const done = arguments[arguments.length - 1];"
                + "(async () => {"
                + "  const note = parseNote(arguments[0]);"
                + "  const logs = await Promise.all(arguments[1].map((k) => parseVkey(k, 1)));"
                + "  const witnesses = await Promise.all(arguments[2].map((k) => parseVkey(k, 4)));"
                + "  await checkLogSignature(note, logs);"
                + "  const c = await checkCosignatures(note, witnesses);"
                + "  return c.valid.map((w) => w.name + '@' + w.time.toISOString()).join(',') + '|' + c.invalid.join(',');"
                + "})().then(done, (e) => done('error: ' + e.message));";
        List<String> logKeys = log.verifierKeys();
        List<String> witnessKeys = List.of(witnessEd.verifierKey(), witnessPq.verifierKey());
        assertEquals(
                "witness.pq.example@2027-01-15T08:00:01.000Z,witness.pq.example (ML-DSA-44)@2027-01-15T08:00:02.000Z|",
                js.executeAsyncScript(script, note, logKeys, witnessKeys));
        assertEquals(
                "witness.pq.example (ML-DSA-44)@2027-01-15T08:00:02.000Z|",
                js.executeAsyncScript(script, note, List.of(logKeys.get(1)), List.of(witnessKeys.get(1))));
        // one byte changed in each ML-DSA-44 line (the log's: the note is refused; the witness's: not counted)
        String[] lines = note.split("\n");
        String logLine = lines[5]; // origin, size, root, blank, the log's Ed25519 line, then its ML-DSA-44 line
        String witnessLine = lines[7];
        String badLog = note.replace(logLine, flipped(logLine));
        assertTrue(
                js.executeAsyncScript(script, badLog, List.of(logKeys.get(1)), List.of())
                        .toString()
                        .startsWith("error: The signature by the log key pq.electoral-log.example+"),
                "the log's changed ML-DSA-44 line");
        assertEquals(
                "|witness.pq.example (ML-DSA-44)",
                js.executeAsyncScript(
                        script,
                        note.replace(witnessLine, flipped(witnessLine)),
                        List.of(logKeys.get(1)),
                        List.of(witnessKeys.get(1))));

        // the time to check a record's bundle with both kinds, as the page does it
        String timing = "const done = arguments[arguments.length - 1];"
                + "(async () => {"
                + "  const logs = await Promise.all(arguments[1].map((k) => parseVkey(k, 1)));"
                + "  const witnesses = await Promise.all(arguments[2].map((k) => parseVkey(k, 4)));"
                + "  const proof = Array.from({ length: 25 }, (_, i) => new Uint8Array(32).fill(i));"
                + "  const times = [];"
                + "  for (let i = 0; i < 21; i++) {"
                + "    const t0 = performance.now();"
                + "    const note = parseNote(arguments[0]);"
                + "    await checkLogSignature(note, logs);"
                + "    const c = await checkCosignatures(note, witnesses);"
                + "    if (c.valid.length !== 2) throw new Error('not cosigned');"
                + "    await rootFromInclusion(12345678n, 20000000n, new Uint8Array(32), proof);"
                + "    times.push(performance.now() - t0);"
                + "  }"
                + "  return JSON.stringify({ first_ms: times[0], times_ms: times.slice(1) });"
                + "})().then(done, (e) => done('error: ' + e.message));";
        String measured =
                js.executeAsyncScript(timing, note, logKeys, witnessKeys).toString();
        assertFalse(measured.startsWith("error"), measured);
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        com.fasterxml.jackson.databind.JsonNode m =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(measured);
        List<Double> times = new ArrayList<>();
        m.get("times_ms").forEach(t -> times.add(t.asDouble()));
        java.util.Collections.sort(times);
        out.put(
                "what",
                "Chromium (headless, Debian's): one record's bundle checked as the voter page does it, "
                        + "the log's Ed25519 and ML-DSA-44 signatures, a witness's cosignature/v1 and subtree/v1, a "
                        + "25-hash inclusion proof; the first timed run (after the checks above) and the median of 20 more");
        out.put(
                "browser",
                ((org.openqa.selenium.HasCapabilities) browser)
                        .getCapabilities()
                        .getBrowserVersion());
        out.put("first_ms", m.get("first_ms").asDouble());
        out.put("median_ms", times.get(times.size() / 2));
        out.put("max_ms", times.get(times.size() - 1));
        java.nio.file.Files.createDirectories(Path.of("target/voter-page"));
        new com.fasterxml.jackson.databind.ObjectMapper()
                .writerWithDefaultPrettyPrinter()
                .writeValue(Path.of("target/voter-page/post-quantum.json").toFile(), out);
    }

    /** The signature line with one bit of its signature's middle byte changed. */
    private static String flipped(String line) {
        int space = line.lastIndexOf(' ');
        byte[] blob = java.util.Base64.getDecoder().decode(line.substring(space + 1));
        blob[blob.length / 2] ^= 1;
        return line.substring(0, space + 1) + java.util.Base64.getEncoder().encodeToString(blob);
    }

    /** A checkpoint of arche2025h1.staging.ct.transparency.dev with public witnesses' cosignatures. */
    static final String REAL_CHECKPOINT = """
            arche2025h1.staging.ct.transparency.dev
            1432088532
            U7WM79jrzyhGZ5/GUBTpM7NzwdyfFx61t3RovgcC4Ro=

            — arche2025h1.staging.ct.transparency.dev zTM8sQAAAZ5W0WdjBAMARjBEAiBjW5IQf9pvsYLfQFX6hoGREPMHbdQ3urbllzalApkptQIgIpwtEroeW2BXaHAI4kJXFbon5Ch9MNL5zRNZ55lvGt0=
            — arche2025h1.staging.ct.transparency.dev ui8GwCF1+kWqZrxGdhj4aX3gcw7XUlXQQabg/27lefwhUkzbC3NygNI75MdhL1bfTW9g8Ei59RA23oHP7Ry1k3ZFWwQ=
            — transparency.dev/DEV:witness-little-garden 2AQqhwAAAABqEiEgzgFIqqhbUoDwjMWE6UP8nd8/KYTzwZ2rhIgcqoXHAwVkjZr4AscylP3v7sEodkRAErumC2q44vdgJY096st5BQ==
            — witness1.smartit.nu/witness1 pIyCDwAAAABqEiEghIp82KWebrw7/oHQwlTAm3g2RKS4+eebl8eO0WH+/iEcxZ75W3u5hNI7TOQtmJbqmNWVuE0tgh0XwzdZsDsUAQ==
            — remora.n621.de 2net5wAAAABqEiEgPlfF3V06o0Y+fHM+J5J9s27wgxxcOVSpZ/2g/KSiXCg9DEZI+aVCIobWX9sXTynk5XeU/zZ0WBxtqB0DrAWfBw==
            — witness.stagemole.eu Z/euoAAAAABqEiEgw0i+7g2ENfDAWHmtRzCfKTHSDwYDJA2NmKeGi9Y8FtEyOUvVr+AJmIY/2TUFucgKi7lI7cUiOvKFYe/TmN9DAg==
            """;

    static Connection connect() throws SQLException {
        DatabaseLogin db = SharedStack.get().database();
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    static void execute(String sql) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, BOARD);
            ps.executeUpdate();
        }
    }

    static String witnessedNote() throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement("SELECT note FROM checkpoints WHERE board_id = "
                        + "(SELECT board_id FROM boards WHERE name = ?) AND size = ?")) {
            ps.setString(1, BOARD);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the witnessed checkpoint exists");
                return rs.getString(1);
            }
        }
    }

    static void setWitnessedNote(String note) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement("UPDATE checkpoints SET note = ? WHERE board_id = "
                        + "(SELECT board_id FROM boards WHERE name = ?) AND size = ?")) {
            ps.setString(1, note);
            ps.setString(2, BOARD);
            ps.setLong(3, size);
            assertEquals(1, ps.executeUpdate());
        }
    }
}
