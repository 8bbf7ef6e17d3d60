package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileTree;
import org.electorallog.infra.Stack;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Checkpoints;
import org.electorallog.store.Tiles;
import org.electorallog.verifier.LogEndpoint;
import org.junit.jupiter.api.Test;

/**
 * The monitor against real projections served by real query APIs (issue 42 item 2): two
 * projections of one board that agree on the first records and differ after them (one log key,
 * two views) are reported as a fork with both checkpoints and the failing consistency proof; a
 * sealed board whose operator grows it anyway (the seal trigger disabled, a leaf appended and a
 * checkpoint signed by hand) is reported as a sealed board that grew, and its API's moved seal too. Each second look is made by a
 * new monitor on the same state directory, as after a restart.
 */
class MonitorTest {
    static final NoteSigner SIGNER = View.SIGNER;
    static final String PREFIX = View.PREFIX;
    static final Stack STACK = View.STACK;

    static List<Statement> statements(String board, String prefix, int from, int to) {
        List<Statement> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(Statement.newBuilder()
                    .setBoard(board)
                    .setDeliveryId(prefix + i)
                    .setKind(StatementKind.IDP_USER_EVENT)
                    .setStatementTimestamp(1_000 + i)
                    .setSenderName("test")
                    .setSenderPublicKey(ByteBuffer.wrap(new byte[32]))
                    .setUserId(prefix + i)
                    .build());
        }
        return out;
    }

    static Monitor monitor(Path state, MonitorMetrics metrics, List<String> reported, View... views) {
        return monitor(null, state, metrics, reported, views);
    }

    /** A monitor that sends {@code token} (an observer's reads the entries). */
    static Monitor monitor(String token, Path state, MonitorMetrics metrics, List<String> reported, View... views) {
        List<LogEndpoint> endpoints = new ArrayList<>();
        for (View v : views) {
            endpoints.add(new LogEndpoint(v.api().baseUrl(), token));
        }
        return new Monitor(
                new Monitor.Settings(
                        endpoints,
                        List.of(NoteVerifier.parse(SIGNER.verifierKey())),
                        List.of(),
                        PREFIX,
                        List.of(),
                        state),
                metrics,
                reported::add);
    }

    @Test
    void twoViewsThatDifferAfterTheFirstRecordsAreAFork() throws Exception {
        String board = "forked-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-fork-");
        try (View a = View.start("a");
                View b = View.start("b")) {
            a.publish(statements(board, "same-", 0, 5));
            a.publish(statements(board, "a-", 5, 10));
            b.publish(statements(board, "same-", 0, 5));
            b.publish(statements(board, "b-", 5, 15));
            a.awaitCheckpoint(board, 10);
            b.awaitCheckpoint(board, 15);

            List<String> reported = new ArrayList<>();
            assertEquals(
                    List.of(), monitor(state, new MonitorMetrics(), reported, a).pass(), "view A alone is consistent");
            assertTrue(Files.exists(state.resolve(board + ".json")), "the verified checkpoint is kept on disk");

            MonitorMetrics metrics = new MonitorMetrics();
            Monitor restarted = monitor(state, metrics, reported, a, b);
            List<Finding> found = restarted.pass();
            assertEquals(1, found.size(), found.toString());
            Finding fork = found.get(0);
            assertEquals(Finding.Kind.FORK, fork.kind());
            assertEquals(b.api().baseUrl(), fork.source());
            assertEquals(
                    10,
                    Checkpoint.parse(SignedNote.parse(fork.previous()).text()).size(),
                    "view A's checkpoint");
            assertEquals(
                    15,
                    Checkpoint.parse(SignedNote.parse(fork.current()).text()).size(),
                    "view B's checkpoint");
            assertFalse(fork.proof().isEmpty(), "the consistency proof that fails is part of the evidence");
            assertTrue(Files.readString(state.resolve("findings.jsonl")).contains("\"kind\":\"FORK\""));
            assertTrue(
                    metrics.text().contains("electoral_log_monitor_findings_total{kind=\"FORK\"} 1.0"), metrics.text());
            assertEquals(List.of(), restarted.pass(), "a fork that persists is reported once per run");
        }
    }

    @Test
    void aSealedBoardThatGrowsIsReported() throws Exception {
        String board = "sealed-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-seal-");
        try (View v = View.start("sealed")) {
            List<Statement> election = statements(board, "vote-", 0, 4);
            election.add(Statement.newBuilder(statements(board, "seal", 0, 1).get(0))
                    .setDeliveryId(org.electorallog.statement.LogStatements.sealId(board))
                    .setKind(StatementKind.BOARD_SEALED)
                    .build()); // the seal, record 4
            v.publish(election);
            v.awaitCheckpoint(board, 5);
            List<String> reported = new ArrayList<>();
            MonitorMetrics metrics = new MonitorMetrics();
            assertEquals(List.of(), monitor(state, metrics, reported, v).pass());
            assertTrue(
                    metrics.text().contains("electoral_log_monitor_sealed_size{board=\"" + board + "\"} 5.0"),
                    metrics.text());

            growBehindTheSeal(v, board);
            List<Finding> found =
                    monitor(state, new MonitorMetrics(), reported, v).pass();
            // the API's seal moved with the board's size, which is a finding of its own
            assertEquals(
                    List.of(Finding.Kind.SEALED_BOARD_GREW, Finding.Kind.SEAL_MISMATCH),
                    found.stream().map(Finding::kind).toList(),
                    found.toString());
            Finding grew = found.get(0);
            assertEquals(
                    5,
                    Checkpoint.parse(SignedNote.parse(grew.previous()).text()).size());
            assertEquals(
                    6, Checkpoint.parse(SignedNote.parse(grew.current()).text()).size());
            assertFalse(
                    grew.proof().isEmpty(), "the consistency proof shows the sealed tree is a prefix of the grown one");
        }
    }

    /**
     * With an observer's token the monitor reads the entries a board grew by: a statement changed in
     * the database after it was logged is reported with its record, and the look goes on past it; a
     * board the API calls sealed whose last record is no seal is a mismatch.
     */
    @Test
    void anObserversMonitorReadsTheEntriesTheBoardGrewBy() throws Exception {
        String board = "entries-" + Long.toString(System.nanoTime(), 36);
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "monitor-entries-");
        try (View v = View.start("entries")) {
            v.publish(statements(board, "vote-", 0, 5));
            v.awaitCheckpoint(board, 5);
            List<String> reported = new ArrayList<>();
            assertEquals(
                    List.of(),
                    monitor(View.OBSERVER, state, new MonitorMetrics(), reported, v)
                            .pass());
            v.publish(statements(board, "vote-", 5, 10));
            v.awaitCheckpoint(board, 10);
            DatabaseLogin db = STACK.database();
            try (Connection c = DriverManager.getConnection(v.jdbcUrl(), db.user(), db.password());
                    java.sql.PreparedStatement ps = c.prepareStatement("UPDATE records SET stored_statement = ? "
                            + "WHERE id = 7 AND board_id = (SELECT board_id FROM boards WHERE name = ?)")) {
                ps.setBytes(
                        1,
                        org.electorallog.schemas.CanonicalStatement.encode(
                                statements(board, "changed-", 7, 8).get(0)));
                ps.setString(2, board);
                assertEquals(1, ps.executeUpdate());
            }
            List<Finding> found = monitor(View.OBSERVER, state, new MonitorMetrics(), reported, v)
                    .pass();
            assertEquals(
                    List.of(Finding.Kind.ENTRIES_DO_NOT_MATCH),
                    found.stream().map(Finding::kind).toList());
            assertTrue(found.get(0).detail().startsWith("entry 7 does not hash to its leaf"), found.toString());
            // issue 61: the finding is recorded and the look moves past the entry it read, so one bad
            // entry does not pin the monitor on it (every later entry is still read and checked)
            MonitorState.Board after = new MonitorState(state).read(board).orElseThrow();
            assertEquals(
                    10,
                    Checkpoint.parse(SignedNote.parse(after.checkpoint()).text())
                            .size(),
                    "the consistent checkpoint is verified");
            assertEquals(10, after.entriesRead(), "the entries read, the changed one among them");
            assertTrue(Files.readString(state.resolve("findings.jsonl")).contains("entry 7 does not hash"));
            v.publish(statements(board, "vote-", 10, 12));
            v.awaitCheckpoint(board, 12);
            assertEquals(
                    List.of(),
                    monitor(View.OBSERVER, state, new MonitorMetrics(), reported, v)
                            .pass(),
                    "the next look reads the new entries only");
            assertEquals(12, new MonitorState(state).read(board).orElseThrow().entriesRead());
            assertEquals(
                    List.of(), monitor(state, new MonitorMetrics(), reported, v).pass(), "without a token: tiles only");

            try (Connection c = DriverManager.getConnection(v.jdbcUrl(), db.user(), db.password())) {
                c.createStatement().execute("UPDATE board_state SET sealed = now()");
            }
            found = monitor(View.OBSERVER, state, new MonitorMetrics(), reported, v)
                    .pass();
            assertEquals(
                    List.of(Finding.Kind.SEAL_MISMATCH),
                    found.stream().map(Finding::kind).toList());
            assertTrue(
                    found.get(0).detail().contains("record 11 is IDP_USER_EVENT, not a BOARD_SEALED statement"),
                    found.toString());
        }
    }

    /** What a dishonest operator would do: disable the seal trigger, append a leaf, sign a checkpoint. */
    static void growBehindTheSeal(View v, String board) throws Exception {
        DatabaseLogin db = STACK.database();
        try (Connection c = DriverManager.getConnection(v.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("ALTER TABLE board_state DISABLE TRIGGER board_state_sealed");
            BoardState s = Boards.state(c, board).orElseThrow();
            short id = s.board().id();
            TileTree tree = TileTree.restore(
                    s.size(),
                    Tiles.read(
                            c,
                            id,
                            TileTree.edgeTiles(s.size()).stream()
                                    .map(TileTree.EdgeTile::key)
                                    .toList()));
            tree.appendLeafHash(new byte[32]);
            Tiles.write(c, id, tree.drainChangedTiles());
            String note = new Checkpoint(s.board().origin(), tree.size(), tree.root()).sign(SIGNER);
            Checkpoints.add(c, id, new CheckpointRow(tree.size(), tree.root(), note));
            Boards.update(
                    c, id, tree.size(), tree.root(), s.lastCreatedMillis(), 0, s.sealedMillis(), s.committedFrom());
        }
    }
}
