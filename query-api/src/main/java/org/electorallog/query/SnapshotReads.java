package org.electorallog.query;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardTip;
import org.electorallog.store.Boards;
import org.electorallog.store.Snapshot;

/**
 * Runs each request's reads in one read-only REPEATABLE READ snapshot of the projection
 * ({@link Snapshot}), and finds the board a request names (404 when there is none).
 */
final class SnapshotReads {
    private final DataSource db;

    SnapshotReads(DataSource db) {
        this.db = db;
    }

    DataSource db() {
        return db;
    }

    <T> T read(Snapshot.Work<T> work) {
        try {
            return Snapshot.read(db, work);
        } catch (SQLException e) {
            throw new IllegalStateException("database error: " + e.getMessage(), e);
        }
    }

    static BoardRow board(Connection c, String name) throws SQLException {
        return Boards.find(c, name).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest checkpoint, in one statement ({@link Boards#TIP_SQL}). */
    static BoardTip tip(Connection c, String name) throws SQLException {
        return Boards.tip(c, name).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest witnessed checkpoint, in one statement. */
    static BoardTip witnessedTip(Connection c, String name) throws SQLException {
        return Boards.witnessedTip(c, name).orElseThrow(() -> noBoard(name));
    }

    private static ApiException noBoard(String name) {
        return ApiException.notFound("there is no board named '" + name + "'; GET /boards lists them");
    }
}
