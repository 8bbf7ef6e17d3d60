package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * Witness cosignatures (V13): the size a witness is asked for so that witnesses asked a moment
 * apart converge on one checkpoint, the quorum mark, the served note with its lines, and the
 * advisory lock that lets one process witness a database.
 */
class CosignaturesTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    @Test
    void witnessesConvergeOnASizeShortOfTheQuorumAndTheQuorumMarksIt() throws Exception {
        String url = MigrationsTest.createDatabase("cosignatures_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 2, "cosignatures-test")) {
            Migrations.apply(ds);
            try (Connection c = ds.getConnection()) {
                short board =
                        Boards.create(c, "b", "log.example/b", 0L, new byte[32]).id();
                for (long size : new long[] {100, 110, 120}) {
                    Checkpoints.add(c, board, new CheckpointRow(size, new byte[32], "note " + size + "\n"));
                }
                // w1 cosigned 100; w2 and w3 nothing yet; the quorum (decided by the projector) not met
                Cosignatures.add(c, board, 100, "w1+00000001", "— w1 AAAA\n", 1_780_000_000L);
                assertEquals(Optional.of(100L), Cosignatures.shortOfQuorum(c, board, "w2+00000002", 0));
                assertEquals(
                        Optional.empty(),
                        Cosignatures.shortOfQuorum(c, board, "w1+00000001", 100),
                        "w1 is not asked to help itself");
                assertEquals(java.util.Set.of("w1+00000001"), Cosignatures.witnessesAt(c, board, 100));
                // w2 helps: 100 meets the quorum, is marked, and nobody is asked for it any more
                Cosignatures.add(c, board, 100, "w2+00000002", "— w2 BBBB\n", 1_780_000_001L);
                assertEquals(java.util.Set.of("w1+00000001", "w2+00000002"), Cosignatures.witnessesAt(c, board, 100));
                assertTrue(Cosignatures.markWitnessed(c, board, 100));
                assertFalse(Cosignatures.markWitnessed(c, board, 100), "marked once");
                assertEquals(Optional.empty(), Cosignatures.shortOfQuorum(c, board, "w3+00000003", 0));
                assertEquals(
                        100,
                        BoardTips.witnessedTip(c, "b")
                                .orElseThrow()
                                .checkpoint()
                                .size());
                // w1 went on to 120 alone: w2 (last 100) is asked for 120, not for 110, which nobody cosigned
                Cosignatures.add(c, board, 120, "w1+00000001", "— w1 CCCC\n", 1_780_000_002L);
                assertEquals(Optional.of(120L), Cosignatures.shortOfQuorum(c, board, "w2+00000002", 100));
                assertEquals(120, Cosignatures.lastSize(c, board, "w1+00000001"));
                assertEquals(0, Cosignatures.lastSize(c, board, "w3+00000003"));
                assertEquals(List.of("— w1 CCCC\n"), Cosignatures.lines(c, board, 120));
                // the tip a checkpoint or proof request reads in one statement: latest and latest witnessed
                BoardTip tip = BoardTips.tip(c, "b").orElseThrow();
                assertEquals(board, tip.board().id());
                assertEquals("log.example/b", tip.board().origin());
                assertEquals(0, tip.size());
                assertEquals(120, tip.checkpoint().size());
                assertEquals("note 120\n— w1 CCCC\n", tip.cosignedNote());
                assertEquals(
                        "note 100\n— w1 AAAA\n— w2 BBBB\n",
                        BoardTips.witnessedTip(c, "b").orElseThrow().cosignedNote());
                short bare = Boards.create(c, "bare", "log.example/bare", 0L, new byte[32])
                        .id();
                Checkpoints.add(c, bare, new CheckpointRow(7, new byte[32], "note 7\n"));
                assertEquals(
                        "note 7\n", BoardTips.tip(c, "bare").orElseThrow().cosignedNote(), "no cosignatures: the note");
                assertEquals(
                        null, BoardTips.witnessedTip(c, "bare").orElseThrow().checkpoint());
                assertEquals(
                        null, BoardTips.witnessedTip(c, "bare").orElseThrow().cosignedNote());
                assertEquals(Optional.empty(), BoardTips.tip(c, "none"));
            }
            try (Connection first = ProjectionDatabase.advisoryLock(url, DB.user(), DB.password(), 42)) {
                assertTrue(first != null, "the first process takes the witnessing lock");
                assertEquals(
                        null,
                        ProjectionDatabase.advisoryLock(url, DB.user(), DB.password(), 42),
                        "a second one does not while the first holds it");
            }
            try (Connection again = ProjectionDatabase.advisoryLock(url, DB.user(), DB.password(), 42)) {
                assertTrue(again != null, "closing the first session released it");
            }
        }
    }
}
