package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads of table {@code records} (V1, V5); the projector writes it through {@link RecordInserter}. */
public final class Records {
    /** The columns of a record's listed fields, in {@link #listed} order: a listing row without its statement. */
    public static final String FIELD_COLUMNS =
            "id, created, statement_ts, kind, user_id, username, election_id, area_id, ballot_id, delivery_id";

    /** The columns a listing or a full export row reads, in {@link #listed} order. */
    public static final String LISTED_COLUMNS = FIELD_COLUMNS + ", stored_statement";

    /** The ballot locator's page (records_user: a voter's few rows, filtered to their cast votes of the election). */
    public static final String BALLOTS_SQL =
            "SELECT id, statement_ts, ballot_id FROM records WHERE board_id = ? AND kind = ? "
                    + "AND user_id = ? AND election_id = ? AND id < ? AND (?::text IS NULL OR ballot_id = ?::text) ORDER BY id DESC LIMIT ?";

    /**
     * The binary search of a created window's edge as one statement (issue 17): the recursive query
     * halves [lo, hi) by the created time of the middle record, one primary-key probe a step, so the
     * search is one round trip instead of log2(size) (about 25 at 20 million records). It ends on a
     * row with lo = hi; there is no such row when a record on the path is missing. Parameters: the
     * board's size, the instant twice, the board ID.
     */
    public static final String FIRST_CREATED_AT_OR_AFTER_SQL = "WITH RECURSIVE search(lo, hi) AS ("
            + "SELECT 0::bigint, ?::bigint "
            + "UNION ALL "
            + "SELECT CASE WHEN r.created < ? THEN (s.lo + s.hi) / 2 + 1 ELSE s.lo END, "
            + "CASE WHEN r.created < ? THEN s.hi ELSE (s.lo + s.hi) / 2 END "
            + "FROM search s JOIN records r ON r.board_id = ? AND r.id = (s.lo + s.hi) / 2 "
            + "WHERE s.lo < s.hi) "
            + "SELECT lo FROM search WHERE lo >= hi";

    /** One audit page (a bounded ID range of the primary key); the statement as stored (V22), read with the row. */
    public static final String AUDIT_PAGE_SQL =
            "SELECT r.id, r.delivery_id, r.stored_statement, r.kind, r.statement_ts, r.sender_id, "
                    + "r.user_id, r.username, r.election_id, r.area_id, r.ballot_id, r.sender_signature, r.system_signature, "
                    + "r.error, r.openings FROM records r WHERE r.board_id = ? AND r.id >= ? AND r.id < ? ORDER BY r.id";

    private Records() {}

    /** One record with its sender key (primary key, senders_pkey). */
    public static Optional<StoredRecord> one(Connection c, short boardId, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT r.id, r.created, r.statement_ts, r.kind, s.public_key, r.user_id, r.username, r.election_id, "
                        + "r.area_id, r.ballot_id, r.delivery_id, r.stored_statement, r.schema_id, r.kafka_partition, r.kafka_offset, "
                        + "b.name FROM records r JOIN boards b ON b.board_id = r.board_id "
                        + "LEFT JOIN senders s ON s.sender_id = r.sender_id WHERE r.board_id = ? AND r.id = ?")) {
            ps.setShort(1, boardId);
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                IndexedFields fields = fields(rs, 6);
                return Optional.of(new StoredRecord(
                        rs.getLong(1),
                        rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(),
                        rs.getShort(4),
                        rs.getBytes(5),
                        fields,
                        rs.getString(11),
                        RecordStatements.canonical(rs.getBytes(12), rs.getString(16), rs.getString(11), fields),
                        rs.getInt(13),
                        rs.getInt(14),
                        rs.getLong(15)));
            }
        }
    }

    /** One cast vote found by the ballot locator. */
    public record Ballot(long id, Instant statementTime, String ballotId) {}

    /** A voter's records of a kind in an election, newest first, before {@code beforeId}, optionally of one ballot ID. */
    public static List<Ballot> ballots(
            Connection c,
            short boardId,
            short kind,
            String userId,
            String electionId,
            String ballotId,
            long beforeId,
            int limit)
            throws SQLException {
        List<Ballot> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(BALLOTS_SQL)) {
            ps.setShort(1, boardId);
            ps.setShort(2, kind);
            ps.setString(3, userId);
            ps.setString(4, electionId);
            ps.setLong(5, beforeId);
            ps.setString(6, ballotId);
            ps.setString(7, ballotId);
            ps.setInt(8, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Ballot(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /** The highest record ID of a board, or -1 when it has none. */
    public static long maxId(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT max(id) FROM records WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return -1;
                }
                long v = rs.getLong(1);
                return rs.wasNull() ? -1 : v;
            }
        }
    }

    /**
     * The first ID whose created time is at or after {@code instant} (the board's size when none): a
     * binary search over the primary key (created never decreases along the IDs) in one statement,
     * {@link #FIRST_CREATED_AT_OR_AFTER_SQL}.
     */
    public static long firstCreatedAtOrAfter(Connection c, BoardRow b, Instant at, long size) throws SQLException {
        Timestamp instant = Timestamp.from(at);
        try (PreparedStatement ps = c.prepareStatement(FIRST_CREATED_AT_OR_AFTER_SQL)) {
            ps.setLong(1, size);
            ps.setTimestamp(2, instant);
            ps.setTimestamp(3, instant);
            ps.setShort(4, b.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("a record of board " + b.name() + " below " + size
                            + " is missing (the created-time search found a gap): run the audit");
                }
                return rs.getLong(1);
            }
        }
    }

    /** The rows of a listing statement of the named board (its select list is {@link #LISTED_COLUMNS}). */
    public static List<StoredRecord> list(Connection c, String board, BoundStatement listing) throws SQLException {
        List<StoredRecord> out = new ArrayList<>();
        try (PreparedStatement ps = listing.prepare(c, "");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(listed(rs, board));
            }
        }
        return out;
    }

    /** The five indexed fields, read from consecutive columns starting at {@code first}. */
    private static IndexedFields fields(ResultSet rs, int first) throws SQLException {
        return new IndexedFields(
                rs.getString(first),
                rs.getString(first + 1),
                rs.getString(first + 2),
                rs.getString(first + 3),
                rs.getString(first + 4));
    }

    /** A row of {@link #LISTED_COLUMNS} of the named board. */
    static StoredRecord listed(ResultSet rs, String board) throws SQLException {
        return row(rs, RecordStatements.canonical(rs.getBytes(11), board, rs.getString(10), fields(rs, 5)));
    }

    /** A row of {@link #FIELD_COLUMNS}: its statement is null. */
    static StoredRecord fieldsOnly(ResultSet rs) throws SQLException {
        return row(rs, null);
    }

    private static StoredRecord row(ResultSet rs, byte[] statement) throws SQLException {
        return new StoredRecord(
                rs.getLong(1),
                rs.getTimestamp(2).toInstant(),
                rs.getTimestamp(3).toInstant(),
                rs.getShort(4),
                null,
                fields(rs, 5),
                rs.getString(10),
                statement,
                -1,
                -1,
                -1);
    }

    /**
     * One audit page: records [start, end) of the named board with their sender keys resolved through
     * {@code senders} and their statements' canonical bytes ({@link RecordStatements#canonical}).
     */
    public static List<AuditRow> auditPage(
            PreparedStatement page, BoardRow board, long start, long end, Map<Integer, byte[]> senders)
            throws SQLException {
        short boardId = board.id();
        List<AuditRow> rows = new ArrayList<>();
        page.setShort(1, boardId);
        page.setLong(2, start);
        page.setLong(3, end);
        try (ResultSet rs = page.executeQuery()) {
            while (rs.next()) {
                Timestamp ts = rs.getTimestamp(5);
                IndexedFields fields = fields(rs, 7);
                rows.add(new AuditRow(
                        rs.getLong(1),
                        rs.getString(2),
                        RecordStatements.canonical(rs.getBytes(3), board.name(), rs.getString(2), fields),
                        rs.getShort(4),
                        ts == null ? null : ts.getTime(),
                        senders.get(rs.getInt(6)),
                        fields,
                        rs.getBytes(12),
                        rs.getBytes(13),
                        rs.getString(14),
                        rs.getBytes(15)));
            }
        }
        return rows;
    }

    /**
     * Every delivery ID a board holds, in record order (one row a record; a repeat would show twice):
     * what the cluster rehearsal's verdict compares with what Kafka acknowledged (the records
     * primary key's range of the board).
     */
    public static List<String> deliveryIds(Connection c, short boardId) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT delivery_id FROM records WHERE board_id = ? ORDER BY id")) {
            ps.setFetchSize(10_000);
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** What a repeated-delivery-ID scan reports. */
    @FunctionalInterface
    public interface RepeatSink {
        void repeated(String deliveryId, long id);
    }

    /** Without a trustworthy deliveries table (V15): a sorted pass over a board's delivery IDs, reporting each repeat. */
    public static void repeatedDeliveryIds(Connection c, short boardId, RepeatSink sink) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT delivery_id, id FROM records WHERE board_id = ? ORDER BY delivery_id, id")) {
            ps.setFetchSize(10_000);
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                String previous = null;
                while (rs.next()) {
                    String d = rs.getString(1);
                    if (d.equals(previous)) {
                        sink.repeated(d, rs.getLong(2));
                    }
                    previous = d;
                }
            }
        }
    }
}
