package org.electorallog.query;

import org.electorallog.store.CounterKey;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.schemas.StatementKinds;

/**
 * The admin listing, counts and exports of a board's records. {@link ListingQuery} picks the index
 * and builds the statement; this class runs it in one snapshot, finds created windows by binary
 * search over the primary key (created never decreases along the IDs), and issues the cursors.
 */
final class RecordListing {
    static final String PAGE_ASC = "SELECT " + ListingQuery.COLUMNS + " FROM records WHERE board_id = ? AND id >= ? AND id < ? "
            + "ORDER BY id LIMIT ?";
    /** The cast-vote export: records_kind in ID order after the last exported ID. */
    static final String VOTES_ASC = "SELECT " + ListingQuery.COLUMNS + " FROM records WHERE board_id = ? AND kind = 1 "
            + "AND id >= ? AND id < ? ORDER BY id LIMIT ?";

    private final DataSource db;
    private final LogReader reader;

    RecordListing(DataSource db, LogReader reader) {
        this.db = db;
        this.reader = reader;
    }

    /** One listing page: its records, the cursor of the next page (null at the end), and how it was served. */
    record Page(List<Map<String, Object>> records, String nextCursor, Map<String, Object> served) {
    }

    Page list(String board, ListingQuery q, String cursor, Cursor cursors) {
        String identity = q.identity + "\u0000" + board;
        Cursor.Position after = cursor == null ? null : cursors.position(identity, cursor);
        return reader.inSnapshot(c -> {
            Planned p = plan(c, board, q, after);
            if (p.sql() == null) {
                return new Page(List.of(), null, p.served());
            }
            List<Map<String, Object>> rows = run(c, p.sql());
            if (p.path() == ListingQuery.Path.SORT_INDEX) {
                String next = rows.size() < q.limit ? null : cursors.encode(identity, new Cursor.Position(
                        (Long) rows.get(rows.size() - 1).get("id"), q.keyOf(rows.get(rows.size() - 1))));
                return new Page(rows, next, p.served());
            }
            Long nextId = null;
            if (rows.size() == q.limit) {
                nextId = (Long) rows.get(rows.size() - 1).get("id");
            } else if (p.path() == ListingQuery.Path.WINDOW && p.lo() < p.hi() && (q.desc ? p.lo() > p.from() : p.hi() < p.to())) {
                nextId = q.desc ? p.lo() : p.hi() - 1;
            }
            return new Page(rows, nextId == null ? null : cursors.encode(identity, new Cursor.Position(nextId, null)), p.served());
        });
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the statement a listing request runs (the admin explain endpoint). */
    String explain(String board, ListingQuery q, String cursor, Cursor cursors) {
        Cursor.Position after = cursor == null ? null : cursors.position(q.identity + "\u0000" + board, cursor);
        return reader.inSnapshot(c -> {
            Planned p = plan(c, board, q, after);
            return p.sql() == null ? "[]" : explain(c, p.sql());
        });
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the statement a count request runs. */
    String explainCount(String board, ListingQuery q) {
        return reader.inSnapshot(c -> {
            LogReader.Board b = reader.board(c, board);
            List<CounterKey> keys = q.counterKeys();
            if (keys != null) {
                return explain(c, new ListingQuery.Sql(COUNTER_SQL, List.of(b.id(), keys.get(0).kind(), keys.get(0).electionId())));
            }
            long[] range = idRange(c, b, q, reader.boardSize(c, b));
            if (q.countIsIdRange()) {
                return explain(c, new ListingQuery.Sql(CREATED_AT_SQL, List.of(b.id(), range[0])));
            }
            Integer senderId = q.senderKey == null ? null : senderId(c, q.senderKey);
            ListingQuery.Sql sql = q.cappedCount(b.id(), range[0], range[1], senderId);
            if (sql == null) {
                throw ApiException.badRequest("this filter combination has no bounded count; countable: " + ListingQuery.COUNTABLE);
            }
            return explain(c, sql);
        });
    }

    private static String explain(Connection c, ListingQuery.Sql sql) throws SQLException {
        try (PreparedStatement ps = sql.prepare(c, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) "); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The statement of one listing page with how it is served; sql is null when nothing can match. */
    private record Planned(ListingQuery.Sql sql, ListingQuery.Path path, Map<String, Object> served, long from, long to,
                           long lo, long hi) {
    }

    private Planned plan(Connection c, String board, ListingQuery q, Cursor.Position after) throws SQLException {
        LogReader.Board b = reader.board(c, board);
        long size = reader.boardSize(c, b);
        Map<String, Object> served = new LinkedHashMap<>();
        ListingQuery.Path path = q.path();
        served.put("path", path.name().toLowerCase(java.util.Locale.ROOT));
        served.put("index", path.servedBy);
        Integer senderId = null;
        if (q.senderKey != null) {
            senderId = senderId(c, q.senderKey);
            if (senderId == null) {
                served.put("note", "no record has this sender key");
                return new Planned(null, path, served, 0, 0, 0, 0);
            }
        }
        if (path == ListingQuery.Path.SORT_INDEX) {
            return new Planned(q.page(b.id(), 0, 0, after, null), path, served, 0, 0, 0, 0);
        }
        long[] range = idRange(c, b, q, size);
        long from = range[0];
        long to = range[1];
        if (after != null) {
            if (q.desc) {
                to = Math.min(to, after.lastId());
            } else {
                from = Math.max(from, after.lastId() + 1);
            }
        }
        long lo = from;
        long hi = to;
        if (path == ListingQuery.Path.WINDOW) {
            if (q.desc) {
                lo = Math.max(from, hi - q.window());
            } else {
                hi = Math.min(to, lo + q.window());
            }
            served.put("scanned_from_id", lo);
            served.put("scanned_to_id", Math.max(lo, hi));
        }
        return new Planned(lo < hi ? q.page(b.id(), lo, hi, null, senderId) : null, path, served, from, to, lo, hi);
    }

    /**
     * A count: exact from counters or from an ID range in constant time, else capped at
     * {@link ListingQuery#COUNT_CAP} through an index that bounds the rows read; 400 otherwise.
     */
    Map<String, Object> count(String board, ListingQuery q) {
        return reader.inSnapshot(c -> {
            LogReader.Board b = reader.board(c, board);
            Map<String, Object> out = new LinkedHashMap<>();
            List<CounterKey> keys = q.counterKeys();
            if (keys != null) {
                long n = 0;
                try (PreparedStatement ps = c.prepareStatement(COUNTER_SQL)) {
                    for (CounterKey k : keys) {
                        ps.setShort(1, b.id());
                        ps.setShort(2, k.kind());
                        ps.setString(3, k.electionId());
                        try (ResultSet rs = ps.executeQuery()) {
                            n += rs.next() ? rs.getLong(1) : 0;
                        }
                    }
                }
                out.put("count", n);
                out.put("capped", false);
                out.put("source", "counters");
                return out;
            }
            long size = reader.boardSize(c, b);
            long[] range = idRange(c, b, q, size);
            if (q.countIsIdRange()) {
                out.put("count", Math.max(0, range[1] - range[0]));
                out.put("capped", false);
                out.put("source", "id_range");
                return out;
            }
            Integer senderId = null;
            if (q.senderKey != null) {
                senderId = senderId(c, q.senderKey);
                if (senderId == null) {
                    out.put("count", 0);
                    out.put("capped", false);
                    out.put("source", "senders");
                    return out;
                }
            }
            ListingQuery.Sql sql = q.cappedCount(b.id(), range[0], range[1], senderId);
            if (sql == null) {
                throw ApiException.badRequest("this filter combination has no bounded count; countable: " + ListingQuery.COUNTABLE);
            }
            long n;
            try (PreparedStatement ps = sql.prepare(c, ""); ResultSet rs = ps.executeQuery()) {
                rs.next();
                n = rs.getLong(1);
            }
            out.put("count", Math.min(n, ListingQuery.COUNT_CAP));
            out.put("capped", n > ListingQuery.COUNT_CAP);
            out.put("source", "index");
            return out;
        });
    }

    static final String COUNTER_SQL = "SELECT n FROM counters WHERE board_id = ? AND kind = ? AND election_id = ?";

    /** [from, to) of the IDs the request's ID bounds and created window allow, within the board's size. */
    private long[] idRange(Connection c, LogReader.Board b, ListingQuery q, long size) throws SQLException {
        long from = q.fromId == null ? 0 : q.fromId;
        long to = q.toId == null ? size : Math.min(size, q.toId);
        if (q.createdFrom != null) {
            from = Math.max(from, firstIdCreatedAtOrAfter(c, b, q.createdFrom, size));
        }
        if (q.createdTo != null) {
            to = Math.min(to, firstIdCreatedAtOrAfter(c, b, q.createdTo, size));
        }
        return new long[] {from, Math.max(from, to)};
    }

    private static Integer senderId(Connection c, byte[] key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT sender_id FROM senders WHERE public_key = ?")) {
            ps.setBytes(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : null;
            }
        }
    }

    private static List<Map<String, Object>> run(Connection c, ListingQuery.Sql sql) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (PreparedStatement ps = sql.prepare(c, ""); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(row(rs, false));
            }
        }
        return out;
    }

    static Map<String, Object> row(ResultSet rs, boolean withStatement) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", rs.getLong(1));
        m.put("created", rs.getTimestamp(2).toInstant().toString());
        m.put("statement_time", rs.getTimestamp(3).toInstant().toString());
        m.put("kind", StatementKinds.name(rs.getShort(4)));
        m.put("user_id", rs.getString(5));
        m.put("username", rs.getString(6));
        m.put("election_id", rs.getString(7));
        m.put("area_id", rs.getString(8));
        m.put("ballot_id", rs.getString(9));
        m.put("delivery_id", rs.getString(10));
        byte[] statement = rs.getBytes(11);
        m.put("leaf_hash", Hex.encode(Hashes.leafHash(statement)));
        if (withStatement) {
            m.put("statement", Base64.getEncoder().encodeToString(statement));
        }
        return m;
    }

    /**
     * The first ID whose created time is at or after {@code instant} (the board's size when none):
     * a binary search over the primary key, about 25 point reads at 20 million records.
     */
    static long firstIdCreatedAtOrAfter(Connection c, LogReader.Board b, Timestamp instant, long size) throws SQLException {
        long lo = 0;
        long hi = size;
        try (PreparedStatement ps = c.prepareStatement(CREATED_AT_SQL)) {
            while (lo < hi) {
                long mid = (lo + hi) >>> 1;
                ps.setShort(1, b.id());
                ps.setLong(2, mid);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("record " + mid + " of board " + b.name() + " is missing: run the audit");
                    }
                    if (rs.getTimestamp(1).before(instant)) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
            }
        }
        return lo;
    }

    static final String CREATED_AT_SQL = "SELECT created FROM records WHERE board_id = ? AND id = ?";

    /** The export's upper bound: the latest checkpoint, so an export is consistent and verifiable. */
    record Manifest(long size, String root, String checkpoint) {
    }

    Manifest manifest(String board) {
        return reader.inSnapshot(c -> {
            LogReader.Board b = reader.board(c, board);
            try (PreparedStatement ps = c.prepareStatement(
                    LogReader.CHECKPOINT_SQL)) {
                ps.setShort(1, b.id());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw ApiException.notFound("board '" + board + "' has no checkpoint yet; nothing to export");
                    }
                    return new Manifest(rs.getLong(1), Base64.getEncoder().encodeToString(rs.getBytes(2)), rs.getString(3));
                }
            }
        });
    }

    /**
     * Streams records [0, size) of a board in ID order, {@code batch} per query, to {@code sink}: all
     * records over the primary key, or only cast votes over records_kind.
     */
    void stream(String board, long size, int batch, boolean votesOnly, RowSink sink) throws IOException {
        short boardId = reader.inSnapshot(c -> reader.board(c, board).id());
        long from = 0;
        while (from < size) {
            int n = 0;
            long last = -1;
            try (Connection c = db.getConnection();
                 PreparedStatement ps = c.prepareStatement(votesOnly ? VOTES_ASC : PAGE_ASC)) {
                ps.setShort(1, boardId);
                ps.setLong(2, from);
                ps.setLong(3, size);
                ps.setInt(4, batch);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Object> row = row(rs, !votesOnly);
                        last = (Long) row.get("id");
                        n++;
                        sink.accept(row);
                    }
                }
            } catch (SQLException e) {
                throw new IOException("export of board " + board + " failed at record " + from + ": " + e.getMessage(), e);
            }
            if (n < batch) {
                return;
            }
            from = last + 1;
        }
    }

    @FunctionalInterface
    interface RowSink {
        void accept(Map<String, Object> row) throws IOException;
    }

    static final List<String> CSV_COLUMNS = List.of("id", "created", "statement_time", "kind", "user_id", "username",
            "election_id", "area_id", "ballot_id", "delivery_id", "leaf_hash");

    /** One CSV line (RFC 4180 quoting). */
    static void csv(Writer w, Map<String, Object> row) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < CSV_COLUMNS.size(); i++) {
            Object v = row.get(CSV_COLUMNS.get(i));
            if (i > 0) {
                sb.append(',');
            }
            if (v != null) {
                String s = v.toString();
                if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                    s = '"' + s.replace("\"", "\"\"") + '"';
                }
                sb.append(s);
            }
        }
        w.write(sb.append("\r\n").toString());
    }

    static Writer writer(OutputStream out) {
        return new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }
}
