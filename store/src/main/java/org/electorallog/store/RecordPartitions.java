package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The partitions of table {@code records} (V15, decision 86): each board's records are split by ID
 * into ranges of {@code record_partitioning.width} IDs, so that only the live partition's randomly
 * keyed indexes take inserts and they stay small whatever the board's size. A partition is attached
 * before the first record that needs it is written, in the writer's transaction: created as a plain
 * table, then attached, which locks records only in SHARE UPDATE EXCLUSIVE mode (readers and other
 * boards' writers go on; a {@code CREATE TABLE ... PARTITION OF} would lock out every reader).
 * Each partition's indexes are named after the parent's: records_user_3_0 is records_user on board
 * 3's first partition. Each partition also has its own primary key on id, records_pkey_3_0: records
 * has none, since one would have to hold board_id, which a partition's bounds fix.
 */
public final class RecordPartitions {
    /** The end of a board's last partition: the first ID without one (primary key of record_partitions). */
    public static final String END_SQL =
            "SELECT coalesce(max(end_id), 0), count(*) FROM record_partitions WHERE board_id = ?";

    /** The width of the next partition (record_partitioning's one row). */
    public static final String WIDTH_SQL = "SELECT width FROM record_partitioning";

    /** The indexes of a partition with the parent index each one belongs to. */
    private static final String INDEXES_SQL = "SELECT c.relname, p.relname FROM pg_index x "
            + "JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_inherits i ON i.inhrelid = x.indexrelid "
            + "JOIN pg_class p ON p.oid = i.inhparent WHERE x.indrelid = ?::regclass";

    private RecordPartitions() {}

    /** One partition: the board's record IDs {@code firstId .. endId - 1}, in table {@code name}. */
    public record Partition(short boardId, long firstId, long endId, String name) {}

    /**
     * Makes sure every ID of the board up to {@code lastId} has a partition, attaching new ones after
     * the last; returns the end of the board's last partition (greater than {@code lastId}). Runs in
     * the caller's transaction: if that rolls back, so do the partitions. A scratch board (a negative
     * ID, never committed) needs none: V15's records_scratch holds them all.
     */
    public static long cover(Connection c, short boardId, long lastId) throws SQLException {
        if (boardId < 0) {
            return Long.MAX_VALUE; // a scratch board: records_scratch (V15) holds every ID of it
        }
        long end;
        int count;
        try (PreparedStatement ps = c.prepareStatement(END_SQL)) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the end of board " + boardId + "'s partitions: no row");
                }
                end = rs.getLong(1);
                count = rs.getInt(2);
            }
        }
        if (end > lastId) {
            return end;
        }
        long width = width(c);
        while (end <= lastId) {
            attach(c, new Partition(boardId, end, end + width, "records_" + boardId + "_" + count));
            end += width;
            count++;
        }
        return end;
    }

    /** The partitions of a board in ID order. */
    public static List<Partition> of(Connection c, short boardId) throws SQLException {
        List<Partition> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT first_id, end_id, name FROM record_partitions WHERE board_id = ? ORDER BY first_id")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Partition(boardId, rs.getLong(1), rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    private static long width(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(WIDTH_SQL)) {
            if (!rs.next()) {
                throw new SQLException("record_partitioning has no row: the schema is not at V15");
            }
            return rs.getLong(1);
        }
    }

    /** What a partition's name and its indexes' names end with: _<board>_<ordinal>. */
    private static String suffix(Partition p) {
        return p.name().substring("records".length());
    }

    private static void attach(Connection c, Partition p) throws SQLException {
        // names and bounds are made here from numbers, never from outside input
        try (Statement st = c.createStatement()) {
            // CHECK constraints and defaults too: ATTACH refuses a table without every CHECK of records
            st.execute("CREATE TABLE " + p.name() + " (LIKE records INCLUDING CONSTRAINTS INCLUDING DEFAULTS)");
            // its own primary key on id (records has none: one would have to hold board_id, which the
            // partition's bounds fix), made while the table is empty and not yet attached
            st.execute("ALTER TABLE " + p.name() + " ADD CONSTRAINT records_pkey" + suffix(p) + " PRIMARY KEY (id)");
            st.execute("ALTER TABLE records ATTACH PARTITION " + p.name() + " FOR VALUES FROM (" + p.boardId() + ", "
                    + p.firstId() + ") TO (" + p.boardId() + ", " + p.endId() + ")");
        }
        List<String[]> renames = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INDEXES_SQL)) {
            ps.setString(1, p.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    renames.add(new String[] {rs.getString(1), rs.getString(2) + suffix(p)});
                }
            }
        }
        try (Statement st = c.createStatement()) {
            for (String[] r : renames) {
                st.execute("ALTER INDEX \"" + r[0] + "\" RENAME TO \"" + r[1] + "\"");
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO record_partitions (board_id, first_id, end_id, name) VALUES (?, ?, ?, ?)")) {
            ps.setShort(1, p.boardId());
            ps.setLong(2, p.firstId());
            ps.setLong(3, p.endId());
            ps.setString(4, p.name());
            ps.executeUpdate();
        }
    }
}
