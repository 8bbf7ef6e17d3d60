package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.SignedNote;
import org.electorallog.schemas.avro.CheckpointReason;
import org.electorallog.schemas.avro.LogCheckpoint;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.Test;

/**
 * The monitor compares each new heads board entry with the tree of the board it names (HEADS witness
 * mode, docs/witnesses.md): an entry naming the board's real size and root passes, one naming another
 * root at that size (the witnessed heads board and the board showing two views) is reported, and so
 * is one naming a board the API does not have.
 */
class HeadsLookTest {
    @Test
    void aHeadsEntryNamingAnotherTreeIsReported() throws Exception {
        String board = "area-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-heads-");
        try (View v = View.start("heads")) {
            v.publish(MonitorTest.statements(board, "vote-", 0, 5));
            v.awaitCheckpoint(board, 5);
            LogEndpoint api = new LogEndpoint(v.api().baseUrl(), null);
            byte[] root = Checkpoint.parse(
                            SignedNote.parse(api.checkpoint(board)).text())
                    .root();
            v.publish(List.of(entry(board, 5, root, HeadsBoard.deliveryId(board, 5))));
            v.awaitCheckpoint(HeadsBoard.NAME, 1);
            List<String> reported = new ArrayList<>();
            Monitor monitor = MonitorTest.monitor(state, new MonitorMetrics(), reported, v);
            assertEquals(List.of(), monitor.pass(), "first sight");

            v.publish(MonitorTest.statements(board, "vote-", 5, 7));
            v.awaitCheckpoint(board, 7);
            byte[] at7 = Checkpoint.parse(
                            SignedNote.parse(api.checkpoint(board)).text())
                    .root();
            v.publish(List.of(entry(board, 7, at7, HeadsBoard.deliveryId(board, 7))));
            v.awaitCheckpoint(HeadsBoard.NAME, 2);
            assertEquals(List.of(), monitor.pass(), "a heads entry naming the board's own tree");

            byte[] other = root.clone();
            other[0] ^= 1;
            v.publish(List.of(entry(board, 5, other, "head:" + board + ":5-forged")));
            v.awaitCheckpoint(HeadsBoard.NAME, 3);
            List<Finding> found = monitor.pass();
            assertEquals(1, found.size(), found.toString());
            assertEquals(Finding.Kind.ENTRIES_DO_NOT_MATCH, found.get(0).kind());
            assertEquals(HeadsBoard.NAME, found.get(0).board());
            assertTrue(
                    found.get(0).detail().contains("heads entry 2 names board " + board + " at size 5"),
                    found.get(0).detail());
            assertTrue(
                    found.get(0).detail().contains("show two views"),
                    found.get(0).detail());
        }
    }

    @Test
    void aHeadsEntryNamingABoardTheApiDoesNotHaveIsReported() throws Exception {
        String board = "area-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-ghost-");
        try (View v = View.start("ghost")) {
            v.publish(MonitorTest.statements(board, "vote-", 0, 3));
            v.awaitCheckpoint(board, 3);
            byte[] root = Checkpoint.parse(
                            SignedNote.parse(new LogEndpoint(v.api().baseUrl(), null).checkpoint(board))
                                    .text())
                    .root();
            v.publish(List.of(entry(board, 3, root, HeadsBoard.deliveryId(board, 3))));
            v.awaitCheckpoint(HeadsBoard.NAME, 1);
            List<String> reported = new ArrayList<>();
            Monitor monitor = MonitorTest.monitor(state, new MonitorMetrics(), reported, v);
            assertEquals(List.of(), monitor.pass(), "first sight");

            // before, the monitor's pass ended in a NullPointerException here
            v.publish(List.of(entry("no-such-board", 1, root, "head:no-such-board:1")));
            v.awaitCheckpoint(HeadsBoard.NAME, 2);
            List<Finding> ghost = monitor.pass();
            assertEquals(1, ghost.size(), ghost + " " + reported);
            assertTrue(
                    ghost.get(0).detail().contains("names board no-such-board, which has no checkpoint"),
                    ghost.get(0).detail());
        }
    }

    /** A heads entry naming {@code board} at {@code size} with {@code root}, as the head writer sends it. */
    static Statement entry(String board, long size, byte[] root, String deliveryId) {
        return Statement.newBuilder()
                .setBoard(HeadsBoard.NAME)
                .setDeliveryId(deliveryId)
                .setKind(StatementKind.LOG_CHECKPOINT)
                .setStatementTimestamp(2_000)
                .setSenderName("head writer")
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                .setBody(LogCheckpoint.newBuilder()
                        .setOrigin(View.PREFIX + board)
                        .setSize(size)
                        .setRoot(ByteBuffer.wrap(root))
                        .setReason(CheckpointReason.PERIODIC)
                        .build())
                .build();
    }
}
