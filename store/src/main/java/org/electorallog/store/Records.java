package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.electorallog.core.Hashes;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;

/** Reads of table {@code records} (V1, V5); the projector writes it through {@link RecordInserter}. */
public final class Records {
    /** The columns of a record's listed fields, in {@link #listed} order: a listing row without its statement. */
    public static final String FIELD_COLUMNS =
            "id, created, statement_ts, kind, user_id, username, election_id, area_id, ballot_id, delivery_id";

    /** The columns a listing or a full export row reads, in {@link #listed} order. */
    public static final String LISTED_COLUMNS = FIELD_COLUMNS + ", statement";

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

    /** A full export page in ID order (primary key), statements included. */
    public static final String PAGE_ASC = "SELECT " + LISTED_COLUMNS
            + " FROM records WHERE board_id = ? AND id >= ? AND id < ? " + "ORDER BY id LIMIT ?";
    /** An export page without statements in ID order (primary key): the CSV export. */
    public static final String FIELDS_PAGE_ASC = "SELECT " + FIELD_COLUMNS
            + " FROM records WHERE board_id = ? AND id >= ? AND id < ? " + "ORDER BY id LIMIT ?";
    /** The cast-vote export page without statements: records_kind in ID order after the last exported ID. */
    public static final String FIELDS_KIND_PAGE_ASC = "SELECT " + FIELD_COLUMNS
            + " FROM records WHERE board_id = ? AND kind = ? " + "AND id >= ? AND id < ? ORDER BY id LIMIT ?";

    /** One audit page (a bounded ID range of the primary key). */
    public static final String AUDIT_PAGE_SQL =
            "SELECT r.id, r.delivery_id, r.statement, r.kind, r.statement_ts, r.sender_id, "
                    + "r.user_id, r.username, r.election_id, r.area_id, r.ballot_id, r.sender_signature, r.system_signature "
                    + "FROM records r WHERE r.board_id = ? AND r.id >= ? AND r.id < ? ORDER BY r.id";

    private Records() {}

    /** One record with its sender key (primary key, senders_pkey). */
    public static Optional<StoredRecord> one(Connection c, short boardId, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT r.id, r.created, r.statement_ts, r.kind, s.public_key, r.user_id, r.username, r.election_id, "
                        + "r.area_id, r.ballot_id, r.delivery_id, r.statement, r.schema_id, r.kafka_partition, r.kafka_offset "
                        + "FROM records r LEFT JOIN senders s USING (sender_id) WHERE r.board_id = ? AND r.id = ?")) {
            ps.setShort(1, boardId);
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new StoredRecord(
                        rs.getLong(1),
                        rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(),
                        rs.getShort(4),
                        rs.getBytes(5),
                        fields(rs, 6),
                        rs.getString(11),
                        rs.getBytes(12),
                        rs.getInt(13),
                        rs.getInt(14),
                        rs.getLong(15)));
            }
        }
    }

    /**
     * The cast vote of a board whose RFC 6962 leaf hash, SHA-256(0x00 || statement), is the given
     * one (index records_leaf_hash, V10, partial on kind 1 = StatementKinds.CAST_VOTE; the
     * expression and the predicate must stay exactly the index's). No ORDER BY ... LIMIT: the
     * planner would walk records_kind in ID order instead; a leaf hash is unique on a board anyway.
     */
    public static final String BY_LEAF_HASH_SQL =
            "SELECT id FROM records WHERE sha256('\\x00'::bytea || statement) = ? AND kind = 1 AND board_id = ?";

    /** The ID of the cast vote with this leaf hash on a board, if any. */
    public static Optional<Long> idByLeafHash(Connection c, short boardId, byte[] leafHash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(BY_LEAF_HASH_SQL)) {
            ps.setBytes(1, leafHash);
            ps.setShort(2, boardId);
            Long first = null;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    first = first == null ? rs.getLong(1) : Math.min(first, rs.getLong(1));
                }
            }
            return Optional.ofNullable(first);
        }
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
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, statement FROM records WHERE board_id = ? AND id >= ? AND id < ? ORDER BY id")) {
            ps.setShort(1, boardId);
            ps.setLong(2, from);
            ps.setLong(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!sink.accept(rs.getLong(1), rs.getBytes(2))) {
                        return;
                    }
                }
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
    public static long firstCreatedAtOrAfter(Connection c, BoardRow b, Timestamp instant, long size)
            throws SQLException {
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

    /** The rows of a listing statement (its select list is {@link #LISTED_COLUMNS}). */
    public static List<StoredRecord> list(Connection c, BoundStatement listing) throws SQLException {
        List<StoredRecord> out = new ArrayList<>();
        try (PreparedStatement ps = listing.prepare(c, "");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(listed(rs));
            }
        }
        return out;
    }

    /** What an export sees: one record at a time, with its RFC 6962 leaf hash. */
    @FunctionalInterface
    public interface RecordSink<E extends Exception> {
        void accept(StoredRecord record, byte[] leafHash) throws E;
    }

    /**
     * What an export carries: every record with its statement ({@link #STATEMENTS}), or the listed
     * fields alone ({@link #FIELDS}; the statement is most of a record's bytes), all records or
     * ({@code kind} not null) those of one kind. Every shape takes its leaf hashes from the level-0
     * tiles (C2SP tlog-tiles: a leaf hash is a level-0 tile entry), not by hashing statements: one
     * query for the about 11 tiles of a batch of 2,500 consecutive records instead of 2,500 SHA-256
     * computations, and the hashes the export shows are the tree's own.
     */
    public record ExportShape(boolean statements, Short kind) {
        public ExportShape {
            if (statements && kind != null) {
                throw new IllegalArgumentException("an export with statements covers every kind");
            }
        }

        public static final ExportShape STATEMENTS = new ExportShape(true, null);
        public static final ExportShape FIELDS = new ExportShape(false, null);

        public static ExportShape fieldsOf(short kind) {
            return new ExportShape(false, kind);
        }

        /** The batch's records page. */
        public String sql() {
            if (statements) {
                return PAGE_ASC;
            }
            return kind == null ? FIELDS_PAGE_ASC : FIELDS_KIND_PAGE_ASC;
        }
    }

    /**
     * Streams records [0, size) in ID order, {@code batch} per {@link #exportBatch} on a fresh
     * connection each.
     */
    public static <E extends Exception> void export(
            javax.sql.DataSource db, short boardId, long size, int batch, ExportShape shape, RecordSink<E> sink)
            throws SQLException, E {
        long from = 0;
        while (from < size) {
            long next;
            try (Connection c = db.getConnection()) {
                next = exportBatch(c, boardId, from, size, batch, shape, sink);
            }
            if (next < 0) {
                return;
            }
            from = next;
        }
    }

    /**
     * One export batch: up to {@code batch} records of [from, size) in ID order, over the primary key
     * (or records_kind for a kind), then the level-0 tiles of the batch's IDs in one query
     * ({@link Tiles#BY_KEYS_SQL}, one primary-key probe a tile). Returns the ID the next batch starts
     * from, or -1 after the last batch.
     */
    public static <E extends Exception> long exportBatch(
            Connection c, short boardId, long from, long size, int batch, ExportShape shape, RecordSink<E> sink)
            throws SQLException, E {
        List<StoredRecord> rows = new ArrayList<>(Math.min(batch, 4096));
        try (PreparedStatement ps = c.prepareStatement(shape.sql())) {
            int p = 1;
            ps.setShort(p++, boardId);
            if (shape.kind() != null) {
                ps.setShort(p++, shape.kind());
            }
            ps.setLong(p++, from);
            ps.setLong(p++, size);
            ps.setInt(p, batch);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(shape.statements() ? listed(rs) : fieldsOnly(rs));
                }
            }
        }
        if (rows.isEmpty()) {
            return -1;
        }
        // the batch's own tiles, not the range between its first and last ID: a sparse kind's
        // records may lie millions of IDs apart
        Set<TileKey> keys = new LinkedHashSet<>();
        for (StoredRecord r : rows) {
            keys.add(TileLayout.tileOf(0, r.id()));
        }
        Map<TileKey, byte[]> tiles = Tiles.read(c, boardId, keys);
        for (StoredRecord r : rows) {
            sink.accept(r, leafHash(tiles, boardId, r.id()));
        }
        return rows.size() < batch ? -1 : rows.get(rows.size() - 1).id() + 1;
    }

    /** Record {@code id}'s leaf hash: entry {@code id mod 256} of level-0 tile {@code id / 256}. */
    private static byte[] leafHash(Map<TileKey, byte[]> tiles, short boardId, long id) {
        TileKey key = TileLayout.tileOf(0, id);
        byte[] hashes = tiles.get(key);
        int position = (int) (id - key.index() * TileLayout.TILE_WIDTH);
        if (hashes == null || hashes.length < (position + 1) * Hashes.HASH_SIZE) {
            // a record without its leaf in the tree: the projection is damaged, which the audit names
            throw new IllegalStateException("board " + boardId + " has record " + id
                    + " but no leaf hash for it in level-0 tile " + key.index() + "; run electoral-log audit");
        }
        return new Tile(key, hashes).hash(position);
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

    private static StoredRecord listed(ResultSet rs) throws SQLException {
        return listed(rs, rs.getBytes(11));
    }

    /** A row of {@link #FIELD_COLUMNS}: its statement is null. */
    private static StoredRecord fieldsOnly(ResultSet rs) throws SQLException {
        return listed(rs, null);
    }

    private static StoredRecord listed(ResultSet rs, byte[] statement) throws SQLException {
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

    /** One audit page: records [start, end) with their sender keys resolved through {@code senders}. */
    public static List<AuditRow> auditPage(
            PreparedStatement page, short boardId, long start, long end, Map<Integer, byte[]> senders)
            throws SQLException {
        List<AuditRow> rows = new ArrayList<>();
        page.setShort(1, boardId);
        page.setLong(2, start);
        page.setLong(3, end);
        try (ResultSet rs = page.executeQuery()) {
            while (rs.next()) {
                Timestamp ts = rs.getTimestamp(5);
                rows.add(new AuditRow(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getBytes(3),
                        rs.getShort(4),
                        ts == null ? null : ts.getTime(),
                        senders.get(rs.getInt(6)),
                        fields(rs, 7),
                        rs.getBytes(12),
                        rs.getBytes(13)));
            }
        }
        return rows;
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
