package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import org.electorallog.core.Hashes;
import org.electorallog.statement.StoredStatement;
import org.postgresql.PGStatement;

/**
 * The statements of table {@code records} as anyone outside the projection sees them: canonical
 * bytes, read back from the form the rows store them in (statement {@link StoredStatement}, V22) with
 * each row's board name and columns, and found by their leaf hash.
 */
public final class RecordStatements {
    /**
     * What a statement is read back with, in {@link #canonical(ResultSet, int)}'s order: the stored
     * statement, its board's name (from {@link #JOIN_BOARD}) and the row's delivery, election, area
     * and ballot IDs.
     */
    public static final String READ_COLUMNS =
            "r.stored_statement, b.name, r.delivery_id, r.election_id, r.area_id, r.ballot_id";

    /** The join that names a record's board for {@link #READ_COLUMNS} (records as r, boards as b). */
    public static final String JOIN_BOARD = "JOIN boards b ON b.board_id = r.board_id";

    /** The kind whose records have a leaf key (StatementKinds' CAST_VOTE): the predicate of index records_leaf_key. */
    public static final short CAST_VOTE_KIND = 1;

    private RecordStatements() {}

    /**
     * The cast votes of a board whose leaf key (V22: the first 8 bytes of the RFC 6962 leaf hash,
     * SHA-256(0x00 || canonical statement), big-endian) is the given one, with what their statements
     * are read with (index records_leaf_key, partial on kind 1 = StatementKinds.CAST_VOTE; the
     * predicate must stay exactly the index's). No ORDER BY ... LIMIT: the planner would walk
     * records_kind in ID order instead; a leaf key names one cast vote but for a 2^-64 chance, and
     * {@link #idByLeafHash} checks the whole hash.
     */
    public static final String BY_LEAF_HASH_SQL =
            "SELECT r.id, r.stored_statement, b.name, r.delivery_id, r.election_id, "
                    + "r.area_id, r.ballot_id FROM records r JOIN boards b ON b.board_id = r.board_id "
                    + "WHERE r.leaf_key = ? AND r.kind = 1 AND r.board_id = ?";

    /** The leaf key of a leaf hash (V22 records.leaf_key): its first 8 bytes, big-endian. */
    public static long leafKey(byte[] leafHash) {
        return ByteBuffer.wrap(leafHash, 0, 8).getLong();
    }

    /** The ID of the cast vote with this leaf hash on a board, if any. */
    public static Optional<Long> idByLeafHash(Connection c, short boardId, byte[] leafHash) throws SQLException {
        if (leafHash.length != 32) {
            return Optional.empty();
        }
        try (PreparedStatement ps = c.prepareStatement(BY_LEAF_HASH_SQL)) {
            ps.setLong(1, leafKey(leafHash));
            ps.setShort(2, boardId);
            Long first = null;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (Arrays.equals(Hashes.leafHash(canonical(rs, 2)), leafHash)) {
                        first = first == null ? rs.getLong(1) : Math.min(first, rs.getLong(1));
                    }
                }
            }
            return Optional.ofNullable(first);
        }
    }

    /**
     * The canonical statement bytes of a row's stored statement (statement {@link StoredStatement}, V22)
     * read with its board's name and its own columns; when they do not decode (a row changed behind
     * the projector) the stored bytes as they are, whose leaf then matches no tree: what the audit and
     * every client find, as they would any other change of a row.
     */
    public static byte[] canonical(byte[] stored, String board, String deliveryId, IndexedFields fields) {
        if (stored == null) {
            return null;
        }
        try {
            return StoredStatement.canonical(stored, RecordContent.row(board, deliveryId, fields));
        } catch (IllegalArgumentException e) {
            return stored;
        }
    }

    /** The canonical bytes of the row's statement, read from {@link #READ_COLUMNS} starting at column {@code first}. */
    public static byte[] canonical(ResultSet rs, int first) throws SQLException {
        return canonical(
                rs.getBytes(first),
                rs.getString(first + 1),
                rs.getString(first + 2),
                new IndexedFields(
                        null, null, rs.getString(first + 3), rs.getString(first + 4), rs.getString(first + 5)));
    }

    /**
     * Makes a pass's statement server-prepared from its first execution, so that its results come in
     * PostgreSQL's binary format: a stored statement (bytea) as its bytes rather than as hex text
     * twice as long, which pgjdbc would decode a digit at a time (pgjdbc: a negative prepareThreshold
     * forces binary transfer). A pass over a whole board reads about 1.6 times as fast (decision 151).
     */
    static void inBinary(PreparedStatement ps) throws SQLException {
        ps.unwrap(PGStatement.class).setPrepareThreshold(-1);
    }

    /** What a statement pass sees: a record's ID and canonical statement. */
    @FunctionalInterface
    public interface StatementSink {
        /** Returns false to stop the pass. */
        boolean accept(long id, byte[] statement) throws SQLException;
    }

    /** The canonical statements of records [from, to) in ID order (primary key), until the sink says stop. */
    public static void statements(Connection c, short boardId, long from, long to, StatementSink sink)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT r.id, " + READ_COLUMNS + " FROM records r " + JOIN_BOARD
                + " WHERE r.board_id = ? AND r.id >= ? AND r.id < ? ORDER BY r.id")) {
            ps.setFetchSize(10_000); // a cursor where the caller's transaction allows one: a whole board is long
            inBinary(ps);
            ps.setShort(1, boardId);
            ps.setLong(2, from);
            ps.setLong(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!sink.accept(rs.getLong(1), canonical(rs, 2))) {
                        return;
                    }
                }
            }
        }
    }
}
