package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.BoardTip;
import org.electorallog.store.BoardTips;
import org.electorallog.store.Boards;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Checkpoints;
import org.electorallog.store.HeadLinks;
import org.electorallog.store.Projection;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.WitnessServer;
import org.junit.jupiter.api.Test;

/**
 * HEADS witness mode (issue 45 item 3, docs/witnesses.md): the head writer enters every board's
 * latest checkpoint on the heads board through Kafka, a repeated round adds nothing, and a witness
 * round is one request whatever the number of boards, while no board's own checkpoint reaches the
 * witness. Rounds are run by the test, one at a time, so the counts are exact.
 */
class HeadWritingTest {
    private static final int BOARDS = 20;

    @Test
    void oneWitnessRequestARoundCoversEveryBoard() throws Exception {
        ProjectorHarness h = new ProjectorHarness("heads", 2);
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("heads_" + System.nanoTime());
        // the log signs with both keys (decision 146): every heads checkpoint carries ML-DSA-44, a board's
        // checkpoints only once an hour
        Cosigner.Key postQuantum =
                Cosigner.Key.generateMlDsa44(h.settings.signer().name());
        ProjectorSettings settings = h.settings
                .withDatabase(db.atUrl(url))
                .withCheckpointEvery(Duration.ZERO)
                .withSigner(h.settings.signer().withPostQuantum(postQuantum))
                .withPostQuantumEvery(Duration.ofHours(1));
        NoteSigner logKey = settings.signer();
        Path dir = Files.createDirectories(Path.of("target/heads-test-" + System.nanoTime()));
        Cosigner.Key key = Cosigner.Key.generate("w1.witness.test");
        Cosigner.Key keyPq = Cosigner.Key.generateMlDsa44("w1.witness.test"); // the same witness cosigns with both
        WitnessServer w1 = WitnessServer.start(
                "127.0.0.1",
                0,
                List.of(key, keyPq),
                FollowedLogs.parse(List.of(settings.originPrefix() + "* " + logKey.verifierKey())),
                dir.resolve("w1"),
                true,
                WitnessServer.Options.defaults());
        WitnessPolicy policy = WitnessPolicy.parse(
                List.of(
                        key.verifierKey() + " http://127.0.0.1:" + w1.port(),
                        keyPq.verifierKey() + " http://127.0.0.1:" + w1.port()),
                "1");
        WitnessPolicy.Entry witness = policy.witnesses().get(0);
        try (Projector p = Projector.start(settings);
                Witnessing witnessing = Witnessing.unscheduled(policy, settings, Duration.ofSeconds(5), true);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int b = 0; b < BOARDS; b++) {
                WitnessingTest.publish(producer, "area-" + b, 0, 3);
            }
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));

            // a round enters every board once; the heads board holds one entry a board
            assertEquals(BOARDS, witnessing.headRound());
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(BOARDS, WitnessingTest.treeSize(url, db, HeadsBoard.NAME));
            assertEquals(0, witnessing.headRound(), "nothing changed: nothing entered");

            // one request covers them all
            long before = w1.addCheckpointRequests();
            witnessing.round(witness);
            assertEquals(before + 1, w1.addCheckpointRequests(), "one add-checkpoint for " + BOARDS + " boards");
            assertEquals(BOARDS, WitnessingTest.witnessedSize(url, db, HeadsBoard.NAME));
            // the one answer held both cosignatures: the ML-DSA-44 key's is stored too, verified
            try (Projection c = Projection.open(db.atUrl(url), 1, "head-writing-test")) {
                short headsId =
                        c.statement(r -> r.board(HeadsBoard.NAME)).orElseThrow().id();
                long pqCosigned = c.autocommit(w ->
                        w.lastCosignedSize(headsId, policy.witnesses().get(1).id()));
                assertEquals(BOARDS, pqCosigned);
            }
            assertLinks(url, db, settings.originPrefix(), 3);

            // a new leader, who does not know what was entered, enters every board again: the repeats are dropped
            try (HeadWriter newLeader = HeadWriter.create(settings);
                    Projection c = Projection.open(db.atUrl(url), 1, "head-writing-test")) {
                assertEquals(BOARDS, newLeader.round(c));
            }
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(
                    BOARDS, WitnessingTest.treeSize(url, db, HeadsBoard.NAME), "repeated heads entries are dropped");

            // every board grows: one more round, one more request
            for (int b = 0; b < BOARDS; b++) {
                WitnessingTest.publish(producer, "area-" + b, 3, 4);
            }
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(BOARDS, witnessing.headRound());
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            before = w1.addCheckpointRequests();
            witnessing.round(witness);
            assertEquals(before + 1, w1.addCheckpointRequests(), "again one add-checkpoint for " + BOARDS + " boards");
            assertEquals(2 * BOARDS, WitnessingTest.witnessedSize(url, db, HeadsBoard.NAME));
            assertLinks(url, db, settings.originPrefix(), 4);
            for (int b = 0; b < BOARDS; b++) {
                assertEquals(
                        0,
                        WitnessingTest.witnessedSize(url, db, "area-" + b),
                        "no board went to the witness on its own");
            }
            // one board grows once more and is checkpointed; its heads entry is left to the writer below
            WitnessingTest.publish(producer, "area-0", 4, 5);
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            org.electorallog.testkit.Poll.until(
                    Duration.ofMinutes(1),
                    "area-0's checkpoint at 5",
                    () -> BoardSealTest.checkpointSizes(url, "area-0"),
                    sizes -> sizes.contains(5L));
            // the heads board's checkpoints carry the log's ML-DSA-44 signature, witnessed; a board's only its first
            List<NoteVerifier> ed25519 = List.of(NoteVerifier.parse(logKey.verifierKey()));
            List<NoteVerifier> mlDsa = List.of(NoteVerifier.parse(postQuantum.verifierKey()));
            java.util.SortedMap<Long, String> heads = BoardSealTest.checkpointNotes(url, HeadsBoard.NAME);
            assertTrue(heads.size() >= 2, heads.keySet().toString());
            for (String note : heads.values()) {
                Checkpoint.open(note, mlDsa);
                Checkpoint.open(note, ed25519);
            }
            java.util.SortedMap<Long, String> area = BoardSealTest.checkpointNotes(url, "area-0");
            assertTrue(
                    area.keySet().containsAll(List.of(3L, 4L, 5L)),
                    area.keySet().toString());
            Checkpoint.open(area.get(area.firstKey()), mlDsa);
            for (long size : area.tailMap(area.firstKey() + 1).keySet()) {
                Checkpoint.open(area.get(size), ed25519);
                assertThrows(ProofException.class, () -> Checkpoint.open(area.get(size), mlDsa), "size " + size);
            }
        } finally {
            w1.close();
        }
        // issue 61 item 7: an entry counts once the heads board holds it, not when Kafka acknowledged it.
        // With no projector running, the grown board's new entry is never projected: a writer that
        // waits no time before sending again sends it again each round; the others are on the board.
        try (HeadWriter impatient = HeadWriter.create(settings, Duration.ZERO);
                Projection c = Projection.open(db.atUrl(url), 1, "head-writing-test")) {
            assertEquals(BOARDS, impatient.round(c), "a new writer enters every board once");
            assertEquals(1, impatient.round(c), "the unprojected entry is sent again, the projected ones are not");
            assertEquals(1, impatient.round(c));
        }
        try (HeadWriter patient = HeadWriter.create(settings, Duration.ofHours(1));
                Projection c = Projection.open(db.atUrl(url), 1, "head-writing-test")) {
            assertEquals(BOARDS, patient.round(c));
            assertEquals(0, patient.round(c), "within its wait, an acknowledged entry is not sent again");
        }
    }

    /** Every board's newest link is its checkpoint at {@code size}, named by a heads entry within the witnessed heads. */
    private static void assertLinks(String url, DatabaseLogin db, String prefix, long size) throws Exception {
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            BoardTip heads = BoardTips.witnessedTip(c, HeadsBoard.NAME).orElseThrow();
            for (int b = 0; b < BOARDS; b++) {
                String board = "area-" + b;
                short id = Boards.find(c, board).orElseThrow().id();
                HeadLinks.Link link = HeadLinks.link(
                                c, heads.board().id(), heads.checkpoint().size(), id, board, 0)
                        .orElseThrow(() -> new AssertionError("no heads link for " + board));
                CheckpointRow cp = Checkpoints.latest(c, id).orElseThrow();
                assertEquals(size, cp.size());
                assertEquals(size, link.checkpoint().size());
                assertTrue(link.entryIndex() < heads.checkpoint().size());
                HeadsBoard.Head named = HeadsBoard.read(link.entry());
                assertEquals(prefix + board, named.origin());
                assertEquals(size, named.size());
                assertArrayEquals(cp.root(), named.root());
            }
        }
    }
}
