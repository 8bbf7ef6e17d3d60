package org.electorallog.query;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardTip;
import org.electorallog.store.BoardTips;
import org.electorallog.store.Boards;
import org.electorallog.store.ProofTip;
import org.electorallog.store.Snapshot;

/**
 * Runs each request's reads in one read-only REPEATABLE READ snapshot of the projection
 * ({@link Snapshot}), and finds the board a request names (404 when there is none). Two pools
 * (decision 71): {@link #read} on the one whose statements are planned for their parameters
 * (listings, filters, counts, exports, decision 20), {@link #proofRead} and {@link #proofStatement}
 * on the one whose statements keep their cached plans (checkpoints, proofs, tiles: index probes by
 * key, which a fresh plan would cost more than they do; and the ballot locator, decision 73), and
 * exports on a third of their own ({@link #exportDb}).
 */
final class SnapshotReads {
    private final DataSource db;
    private final DataSource proofDb;
    private final DataSource exportDb;

    SnapshotReads(DataSource db, DataSource proofDb, DataSource exportDb) {
        this.db = db;
        this.proofDb = proofDb;
        this.exportDb = exportDb;
    }

    /**
     * The exports' own pool, as many connections as exports may run at once (issue 41): an export
     * holds its connection while its client reads, and must not hold the listing pool's.
     */
    DataSource exportDb() {
        return exportDb;
    }

    /** Listings, filters, counts and exports: one snapshot, every statement planned for its parameters. */
    <T> T read(Snapshot.Work<T> work) {
        return run(() -> Snapshot.read(db, work));
    }

    /** Checkpoint, proof and tile reads of more than one statement: one snapshot, cached plans. */
    <T> T proofRead(Snapshot.Work<T> work) {
        return run(() -> Snapshot.read(proofDb, work));
    }

    /**
     * A checkpoint or proof read of one statement, autocommitted ({@link Snapshot#statement}): its
     * own snapshot, no transaction to roll back, cached plans.
     */
    <T> T proofStatement(Snapshot.Work<T> work) {
        return run(() -> Snapshot.statement(proofDb, work));
    }

    private interface Call<T> {
        T call() throws SQLException;
    }

    private static <T> T run(Call<T> call) {
        try {
            return call.call();
        } catch (SQLException e) {
            throw new IllegalStateException("database error: " + e.getMessage(), e);
        }
    }

    static BoardRow board(Connection c, String name) throws SQLException {
        return Boards.find(c, name).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest checkpoint, in one statement ({@link BoardTips#TIP_SQL}). */
    static BoardTip tip(Connection c, String name) throws SQLException {
        return BoardTips.tip(c, name).orElseThrow(() -> noBoard(name));
    }

    /**
     * The board with its size and latest checkpoint, and the tiles on the paths of {@code leaves}
     * and of that checkpoint's right edge: what a proof at the checkpoint reads, in one statement
     * ({@link BoardTips#PROOF_TIP_SQL}).
     */
    static ProofTip proofTip(Connection c, String name, long... leaves) throws SQLException {
        return BoardTips.proofTip(c, name, leaves).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest witnessed checkpoint, in one statement. */
    static BoardTip witnessedTip(Connection c, String name) throws SQLException {
        return BoardTips.witnessedTip(c, name).orElseThrow(() -> noBoard(name));
    }

    private static ApiException noBoard(String name) {
        return ApiException.notFound("there is no board named '" + name + "'; GET /boards lists them");
    }
}
