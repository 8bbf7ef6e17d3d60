package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.store.BoardTip;
import org.electorallog.store.BoardTips;
import org.electorallog.store.Boards;
import org.electorallog.store.Cosignatures;
import org.electorallog.testkit.Poll;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.WitnessServer;
import org.junit.jupiter.api.Test;

/**
 * The witness client against real witnesses (issue 18): checkpoints get cosigned with consistency
 * proofs and marked witnessed at the quorum; a witness that hangs or is down stops neither
 * projection nor the others; a witness whose size we lost answers 409 and is caught up from its size.
 */
class WitnessingTest {
    @Test
    void checkpointsAreCosignedWhileWitnessesComeAndGo() throws Exception {
        ProjectorHarness h = new ProjectorHarness("witnessing", 1);
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("witnessing_" + System.nanoTime());
        ProjectorSettings settings = h.settings.withDatabase(db.atUrl(url)).withCheckpointEvery(Duration.ZERO);
        NoteSigner logKey = settings.signer();
        Path dir = Files.createDirectories(Path.of("target/witnessing-test-" + System.nanoTime()));
        Cosigner.Key k1 = Cosigner.Key.generate("w1.witness.test");
        Cosigner.Key k2 = Cosigner.Key.generate("w2.witness.test");
        Cosigner.Key k3 = Cosigner.Key.generate("w3.witness.test");
        FollowedLogs follows = FollowedLogs.parse(List.of(settings.originPrefix() + "* " + logKey.verifierKey()));
        // witness 3 hangs: its port accepts connections (the kernel's backlog) and never answers, so
        // every request to it runs into the client's timeout; it must not hold up the other two
        ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        int deadPort = silent.getLocalPort();
        WitnessServer w1 = WitnessServer.start(
                "127.0.0.1", 0, k1, follows, dir.resolve("w1"), true, WitnessServer.Options.defaults());
        WitnessServer w2 = WitnessServer.start(
                "127.0.0.1", 0, k2, follows, dir.resolve("w2"), true, WitnessServer.Options.defaults());
        int w2Port = w2.port();
        WitnessPolicy policy = WitnessPolicy.parse(
                List.of(
                        k1.verifierKey() + " http://127.0.0.1:" + w1.port(),
                        k2.verifierKey() + " http://127.0.0.1:" + w2Port,
                        k3.verifierKey() + " http://127.0.0.1:" + deadPort),
                "2");
        String board = "witnessed-board";
        try (Projector p = Projector.start(settings);
                Witnessing witnessing =
                        Witnessing.start(policy, settings, Duration.ofSeconds(2), Duration.ofMillis(100));
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            publish(producer, board, 0, 10);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            await(() -> witnessedSize(url, db, board) == 10, "checkpoint 10 witnessed by 2 of 3");
            assertCosignedBy(url, db, board, 10, policy, List.of("w1.witness.test", "w2.witness.test"));

            // grows: the next checkpoint goes with a consistency proof from 10
            publish(producer, board, 10, 300);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            await(() -> witnessedSize(url, db, board) == 300, "checkpoint 300 witnessed");

            // checkpoints keep coming (one a batch) while the witnesses are asked a moment apart: they
            // converge on common sizes, so the witnessed checkpoint keeps up instead of waiting for a pause
            java.util.Set<Long> witnessedWhileWriting = new java.util.TreeSet<>();
            int next = 300;
            for (int chunk = 0; chunk < 30; chunk++) {
                publish(producer, board, next, next + 50);
                next += 50;
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
                witnessedWhileWriting.add(witnessedSize(url, db, board));
            }
            assertTrue(
                    witnessedWhileWriting.size() >= 4,
                    "the witnessed size advanced while writes went on: " + witnessedWhileWriting);
            await(() -> witnessedSize(url, db, board) == 1800, "checkpoint 1800 witnessed");

            // we lose our record of witness 1's cosignatures: it answers 409 with 1800 and we go on from there
            execute(url, db, "DELETE FROM checkpoint_cosignatures WHERE witness LIKE 'w1.%'");
            // witness 2 goes down: projection goes on, checkpoints are cosigned by witness 1 alone, below the quorum
            w2.close();
            publish(producer, board, 1800, 1810);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(1810, treeSize(url, db, board), "projection goes on while two of three witnesses are down");
            await(() -> cosigners(url, db, board, 1810) == 1, "witness 1 cosigned 1810 after its 409");
            assertNull(witnessedAt(url, db, board, 1810), "one cosignature is below the quorum of 2");
            assertEquals(1800, witnessedSize(url, db, board), "the latest witnessed checkpoint stays 1800");

            // witness 2 comes back with its state: it goes on from 1800 and the quorum is reached again
            w2 = WitnessServer.start(
                    "127.0.0.1", w2Port, k2, follows, dir.resolve("w2"), false, WitnessServer.Options.defaults());
            await(() -> witnessedSize(url, db, board) == 1810, "checkpoint 1810 witnessed once witness 2 is back");
            assertCosignedBy(url, db, board, 1810, policy, List.of("w1.witness.test", "w2.witness.test"));

            // a board whose consistency proof cannot be built (its tiles are gone) is not witnessed,
            // and does not keep the witnesses from the boards after it (it sorts first)
            String broken = "unwitnessable-board";
            publish(producer, broken, 0, 300);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            await(() -> witnessedSize(url, db, broken) == 300, "the second board witnessed at 300");
            execute(
                    url,
                    db,
                    "DELETE FROM tiles WHERE board_id = (SELECT board_id FROM boards WHERE name = '" + broken + "')");
            publish(producer, broken, 300, 310);
            publish(producer, board, 1810, 1820);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            await(() -> witnessedSize(url, db, board) == 1820, "the first board still witnessed");
            assertEquals(300, witnessedSize(url, db, broken), "no cosignature without a consistency proof");
        } finally {
            w1.close();
            w2.close();
            silent.close();
        }
    }

    /**
     * A split view as a witness of the current tlog-witness text sees it (C2SP #280): a second
     * projection signs the same origin with the same key over other statements. The witness answers
     * 422, at equal sizes and for a consistency proof from the size it holds; the client names it a
     * split view and stores no cosignature.
     */
    @Test
    void aSplitViewIsRefusedWith422AndNamedAsSuch() throws Exception {
        ProjectorHarness a = new ProjectorHarness("split-a", 1);
        ProjectorHarness b = new ProjectorHarness("split-b", 1);
        DatabaseLogin db = a.stack.database();
        String urlA = a.createDatabase("split_a_" + System.nanoTime());
        String urlB = b.createDatabase("split_b_" + System.nanoTime());
        ProjectorSettings settingsA = a.settings.withDatabase(db.atUrl(urlA)).withCheckpointEvery(Duration.ZERO);
        // the same log key and origin prefix over another topic and database: another tree under one origin
        ProjectorSettings settingsB = ProjectorSettings.defaults(
                        a.stack.kafkaBootstrap(),
                        db.atUrl(urlB),
                        Path.of("target/stack/streams-" + b.topic),
                        settingsA.signer())
                .withTopics(b.topic, b.deadLetters)
                .withApplicationId("app-" + b.topic)
                .withOriginPrefix(settingsA.originPrefix())
                .withCheckpointEvery(Duration.ZERO)
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate());
        Path dir = Files.createDirectories(Path.of("target/witnessing-split-" + System.nanoTime()));
        Cosigner.Key key = Cosigner.Key.generate("split.witness.test");
        WitnessServer w = WitnessServer.start(
                "127.0.0.1",
                0,
                key,
                FollowedLogs.parse(List.of(
                        settingsA.originPrefix() + "* " + settingsA.signer().verifierKey())),
                dir.resolve("w"),
                true,
                WitnessServer.Options.defaults());
        WitnessPolicy policy = WitnessPolicy.parse(List.of(key.verifierKey() + " http://127.0.0.1:" + w.port()), "1");
        String board = "split-board";
        try (w;
                Projector pa = Projector.start(settingsA);
                Projector pb = Projector.start(settingsB);
                Witnessing witnessing =
                        Witnessing.start(policy, settingsA, Duration.ofSeconds(2), Duration.ofMillis(100));
                ElectoralLogProducer toA =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(a.stack.kafkaBootstrap()), a.topic);
                ElectoralLogProducer toB =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(b.stack.kafkaBootstrap()), b.topic);
                org.electorallog.store.Projection projectionB =
                        org.electorallog.store.Projection.open(db.atUrl(urlB), 1, "split-b")) {
            publish(toA, board, 0, 10);
            for (int i = 0; i < 15; i++) {
                toB.publish(ProjectorHarness.statement(board, "other-" + i, 5000 + i));
            }
            toB.flush();
            a.awaitProjected(urlA, a.endOffsets(), Duration.ofMinutes(1));
            await(() -> witnessedSize(urlA, db, board) == 10, "the first projection's checkpoint 10 witnessed");
            b.awaitProjected(urlB, b.endOffsets(), Duration.ofMinutes(1));

            WitnessSubmission submission = new WitnessSubmission(projectionB, Duration.ofSeconds(5), List.of());
            WitnessPolicy.Entry entry = policy.witnesses().get(0);
            short boardId =
                    projectionB.statement(r -> r.board(board).orElseThrow().id());
            org.electorallog.store.CheckpointRow at15 = Poll.until(
                    Duration.ofMinutes(1),
                    "the other projection's checkpoint at 15",
                    () -> projectionB.statement(r -> r.latestCheckpoint(boardId).orElse(null)),
                    c -> c != null && c.size() == 15);
            // from 10, the size the witness holds: the proof 10 -> 15 of the other tree does not verify
            assertEquals(-1, submission.submit(boardId, board, at15, entry, 10));
            String why = submission.failure(entry.id(), board);
            assertTrue(why.contains("422") && why.contains("split view") && why.contains("does not verify"), why);
            assertEquals(0, cosigners(urlB, db, board, 15), "no cosignature stored");
            assertEquals(10, witnessedSize(urlA, db, board), "the witness still stands with the first tree");
        }
    }

    /**
     * Issue 68: the projector marks a checkpoint witnessed by a C2SP tlog-policy file with nested
     * groups, one of which needs a witness's ML-DSA-44 key: the same witness's Ed25519 cosignature
     * alone does not meet it; once that witness cosigns with both keys (one answer), it is met.
     */
    @Test
    void aPolicyFileWhoseQuorumNeedsAnMlDsa44CosignatureDecidesTheWitnessedMark() throws Exception {
        ProjectorHarness h = new ProjectorHarness("witnessing-policy", 1);
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("witnessing_policy_" + System.nanoTime());
        ProjectorSettings settings = h.settings.withDatabase(db.atUrl(url)).withCheckpointEvery(Duration.ZERO);
        Path dir = Files.createDirectories(Path.of("target/witnessing-policy-" + System.nanoTime()));
        Cosigner.Key aEd = Cosigner.Key.generate("a.witness.test");
        Cosigner.Key aPq = Cosigner.Key.generateMlDsa44("a.witness.test");
        Cosigner.Key bEd = Cosigner.Key.generate("b.witness.test");
        FollowedLogs follows = FollowedLogs.parse(
                List.of(settings.originPrefix() + "* " + settings.signer().verifierKey()));
        // witness A starts with its Ed25519 key only; B cosigns with Ed25519
        WitnessServer a = WitnessServer.start(
                "127.0.0.1", 0, aEd, follows, dir.resolve("a"), true, WitnessServer.Options.defaults());
        int aPort = a.port();
        WitnessServer b = WitnessServer.start(
                "127.0.0.1", 0, bEd, follows, dir.resolve("b"), true, WitnessServer.Options.defaults());
        Path policyFile = dir.resolve("policy");
        Files.writeString(
                policyFile,
                "# A with both kinds, and B\n"
                        + "witness a-ed " + aEd.verifierKey() + " http://127.0.0.1:" + aPort + "\n"
                        + "witness a-pq " + aPq.verifierKey() + " http://127.0.0.1:" + aPort + "\n"
                        + "witness b " + bEd.verifierKey() + " http://127.0.0.1:" + b.port() + "\n"
                        + "group a all a-ed a-pq\n"
                        + "group both all a b\n"
                        + "quorum both\n");
        WitnessPolicy policy = WitnessPolicy.of(
                org.electorallog.config.Configuration.load(
                                java.util.Map.of("ELECTORAL_LOG_WITNESS_POLICY_FILE", policyFile.toString()))
                        .fileText(org.electorallog.config.Setting.WITNESS_POLICY_FILE),
                List.of(),
                null);
        String board = "policy-board";
        try (Projector p = Projector.start(settings);
                Witnessing witnessing = Witnessing.unscheduled(policy, settings, Duration.ofSeconds(5), false);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            publish(producer, board, 0, 20);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            for (WitnessPolicy.Entry w : policy.witnesses()) {
                witnessing.round(w);
            }
            assertEquals(2, cosigners(url, db, board, 20), "A's Ed25519 and B's cosignatures are stored");
            assertNull(witnessedAt(url, db, board, 20), "A's ML-DSA-44 cosignature is missing: not witnessed");
            assertEquals(0, witnessedSize(url, db, board));

            // A comes back with both keys: its answer holds both lines, and the quorum is met
            a.close();
            a = WitnessServer.start(
                    "127.0.0.1",
                    aPort,
                    List.of(aEd, aPq),
                    follows,
                    dir.resolve("a"),
                    false,
                    WitnessServer.Options.defaults());
            witnessing.round(policy.witnesses().get(1)); // the ML-DSA-44 entry asks A
            assertEquals(3, cosigners(url, db, board, 20));
            assertEquals(20, witnessedSize(url, db, board), "witnessed by the policy");
        } finally {
            a.close();
            b.close();
        }
    }

    static void publish(ElectoralLogProducer producer, String board, int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            producer.publish(ProjectorHarness.statement(board, "w-" + i, 1000 + i));
        }
        producer.flush();
    }

    /** Verifies the served form (note + stored lines) with the witnesses' keys. */
    static void assertCosignedBy(
            String url, DatabaseLogin db, String board, long size, WitnessPolicy policy, List<String> expected)
            throws Exception {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            BoardTip tip = BoardTips.witnessedTip(c, board).orElseThrow();
            assertEquals(size, tip.checkpoint().size());
            SignedNote note = SignedNote.parse(tip.cosignedNote());
            assertEquals(size, Checkpoint.parse(note.text()).size());
            List<String> valid = new java.util.ArrayList<>();
            for (Cosigner.Verifier v : policy.verifiers()) {
                try {
                    v.verify(note);
                    valid.add(v.name());
                } catch (org.electorallog.core.ProofException e) {
                    // not cosigned by this one
                }
            }
            assertEquals(expected, valid);
        }
    }

    static long witnessedSize(String url, DatabaseLogin db, String board) {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            return BoardTips.witnessedTip(c, board)
                    .map(t -> t.checkpoint() == null ? 0L : t.checkpoint().size())
                    .orElse(0L);
        } catch (SQLException e) {
            return -1;
        }
    }

    static long treeSize(String url, DatabaseLogin db, String board) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            return Boards.state(c, board).orElseThrow().size();
        }
    }

    static int cosigners(String url, DatabaseLogin db, String board, long size) {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            return Cosignatures.lines(c, Boards.find(c, board).orElseThrow().id(), size)
                    .size();
        } catch (SQLException e) {
            return -1;
        }
    }

    static Object witnessedAt(String url, DatabaseLogin db, String board, long size) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password());
                PreparedStatement ps = c.prepareStatement("SELECT k.witnessed FROM checkpoints k JOIN boards b "
                        + "USING (board_id) WHERE b.name = ? AND k.size = ?")) {
            ps.setString(1, board);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "checkpoint " + size + " exists");
                return rs.getObject(1);
            }
        }
    }

    static void execute(String url, DatabaseLogin db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            c.createStatement().execute(sql);
        }
    }

    /** Polls a condition that the code under test makes true (one minute at most). */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Poll.until(Duration.ofMinutes(1), what, condition::getAsBoolean);
    }
}
