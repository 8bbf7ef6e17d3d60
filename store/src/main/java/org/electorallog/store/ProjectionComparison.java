package org.electorallog.store;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofBuilder;

/**
 * Compares two projections of the same topic board by board (by name, since board IDs are local to
 * a database): size, root and dropped duplicates; every record (ID, delivery ID, canonical bytes,
 * created, statement time, kind, indexed fields); every tile; every counter. BRIEF invariant 2 says
 * a replay from offset 0 must be equal in all of these. Signed checkpoint history is not compared:
 * checkpoints are taken at batch boundaries, which depend on timing.
 */
public final class ProjectionComparison {
    private ProjectionComparison() {}

    /** One board's digest in one database. */
    record BoardDigest(
            long size, String root, long duplicates, String records, String tiles, String counters, Long sealed) {}

    /** The differences found (empty when equal), each a sentence naming the board and what differs. */
    public static List<String> compare(DataSource a, DataSource b) throws SQLException {
        return compare(digests(a, Map.of()), digests(b, Map.of()));
    }

    /**
     * Compares a live projection with a replay that stopped at an earlier point of the topic: for each
     * board the live one is read only up to the replay's size (records and the root at that size, from
     * the live tiles); tiles and counters are compared only where the sizes are equal.
     */
    public static List<String> compareWithReplay(DataSource live, DataSource replay) throws SQLException {
        Map<String, BoardDigest> right = digests(replay, Map.of());
        Map<String, Long> limits = new LinkedHashMap<>();
        right.forEach((board, d) -> limits.put(board, d.size()));
        return compare(digests(live, limits), right);
    }

    private static List<String> compare(Map<String, BoardDigest> left, Map<String, BoardDigest> right) {
        List<String> out = new ArrayList<>();
        for (String board : left.keySet()) {
            if (!right.containsKey(board)) {
                out.add("board " + board + " is missing from the second projection");
            }
        }
        for (String board : right.keySet()) {
            if (!left.containsKey(board)) {
                out.add("board " + board + " is missing from the first projection");
            }
        }
        for (Map.Entry<String, BoardDigest> e : left.entrySet()) {
            BoardDigest r = right.get(e.getKey());
            if (r == null) {
                continue;
            }
            BoardDigest l = e.getValue();
            String board = e.getKey();
            if (l.size() != r.size()) {
                out.add("board " + board + ": size " + l.size() + " vs " + r.size());
            }
            if (!l.root().equals(r.root())) {
                out.add("board " + board + ": root " + l.root() + " vs " + r.root());
            }
            if (l.tiles() != null && l.duplicates() != r.duplicates()) {
                out.add("board " + board + ": duplicates dropped " + l.duplicates() + " vs " + r.duplicates());
            }
            if (!Objects.equals(l.records(), r.records())) {
                out.add("board " + board + ": records differ");
            }
            if (l.tiles() != null && !Objects.equals(l.tiles(), r.tiles())) {
                out.add("board " + board + ": tiles differ");
            }
            if (l.counters() != null && !Objects.equals(l.counters(), r.counters())) {
                out.add("board " + board + ": counters differ");
            }
            if (l.tiles() != null && !Objects.equals(l.sealed(), r.sealed())) {
                out.add("board " + board + ": sealed " + l.sealed() + " vs " + r.sealed());
            }
        }
        return out;
    }

    /**
     * Per board: state, and order-sensitive MD5 digests of records, tiles and counters. A board with a
     * limit below its size is read as of that size: records below it, the root at it from the tiles,
     * and no tile or counter digest (null).
     */
    static Map<String, BoardDigest> digests(DataSource ds, Map<String, Long> limits) throws SQLException {
        Map<String, BoardDigest> out = new LinkedHashMap<>();
        try (Connection c = ds.getConnection()) {
            Snapshot.begin(c);
            try (PreparedStatement set = c.prepareStatement("SET LOCAL TIME ZONE 'UTC'")) {
                set.execute();
            }
            for (BoardState b : Boards.all(c)) {
                short id = b.board().id();
                String name = b.board().name();
                long limit = limits.getOrDefault(name, b.size());
                if (limit < b.size()) {
                    String records = digest(c, RECORDS + " AND id < " + limit, id) + " " + statements(c, id, limit);
                    byte[] root = ProofBuilder.rootAt(limit, Tiles.source(c, id));
                    out.put(
                            name,
                            new BoardDigest(
                                    limit,
                                    Base64.getEncoder().encodeToString(root),
                                    b.duplicatesDropped(),
                                    records,
                                    null,
                                    null,
                                    null)); // a seal is a board's last record: never within a shorter prefix
                    continue;
                }
                // a board's delivery keys are part of its records: without them a repeat would be stored
                String records =
                        digest(c, RECORDS, id) + " " + statements(c, id, Long.MAX_VALUE) + " " + deliveries(c, id);
                String tiles = digest(
                        c,
                        "SELECT md5(string_agg(concat_ws('|', level, idx, md5(hashes)), E'\\n' "
                                + "ORDER BY level, idx)) FROM tiles WHERE board_id = ?",
                        id);
                String counters = digest(
                        c,
                        "SELECT md5(string_agg(concat_ws('|', kind, election_id, n), E'\\n' "
                                + "ORDER BY kind, election_id)) FROM counters WHERE board_id = ?",
                        id);
                out.put(
                        name,
                        new BoardDigest(
                                b.size(),
                                Base64.getEncoder().encodeToString(b.root()),
                                b.duplicatesDropped(),
                                records,
                                tiles,
                                counters,
                                b.sealedMillis()));
            }
            c.rollback();
        }
        return out;
    }

    /** A board's rows but their statements, which {@link #statements} digests as canonical bytes. */
    private static final String RECORDS = "SELECT md5(string_agg(concat_ws('|', id, delivery_id, "
            + "created, statement_ts, kind, (SELECT encode(public_key, 'hex') FROM senders s WHERE s.sender_id = records.sender_id), user_id, username, election_id, "
            + "area_id, ballot_id, schema_id, md5(sender_signature), md5(system_signature), md5(openings)), E'\\n' ORDER BY id)) "
            + "FROM records WHERE board_id = ?";

    /**
     * A board's rows of deliveries (V15) in record order, without the board ID their keys begin
     * with (two projections may number a board differently).
     */
    private static String deliveries(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT md5(string_agg(encode(substring(uuid_send(key) FROM 3), "
                + "'hex') || '|' || id, E'\\n' ORDER BY id)) FROM deliveries WHERE key BETWEEN ?::uuid AND ?::uuid")) {
            ps.setObject(1, Deliveries.boardEdge(boardId, false));
            ps.setObject(2, Deliveries.boardEdge(boardId, true));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /**
     * SHA-256 over a board's records below {@code limit} in ID order, each its ID and its canonical
     * statement bytes: what the rows say, whichever form each stores its statement in (a projection
     * written before V22 holds canonical bytes, a replay the stored form).
     */
    private static String statements(Connection c, short boardId, long limit) throws SQLException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        ByteBuffer head = ByteBuffer.allocate(12);
        RecordStatements.statements(c, boardId, 0, limit, (id, statement) -> {
            head.clear();
            md.update(head.putLong(id).putInt(statement.length).array());
            md.update(statement);
            return true;
        });
        return Hex.encode(md.digest());
    }

    private static String digest(Connection c, String sql, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
