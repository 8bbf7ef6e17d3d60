package org.electorallog.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofBuilder;
import org.electorallog.schemas.StatementKinds;

/**
 * The queries behind the public endpoints. Each request runs in one read-only REPEATABLE READ
 * transaction, so a proof is built inside one snapshot.
 */
final class LogReader {
    private final DataSource db;

    LogReader(DataSource db) {
        this.db = db;
    }

    @FunctionalInterface
    interface InSnapshot<T> {
        T run(Connection c) throws SQLException;
    }

    <T> T inSnapshot(InSnapshot<T> work) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                return work.run(c);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("database error: " + e.getMessage(), e);
        }
    }

    /** A board's ID and origin. */
    record Board(short id, String name, String origin) {
    }

    Board board(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT board_id, origin FROM boards WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw ApiException.notFound("there is no board named '" + name + "'; GET /boards lists them");
                }
                return new Board(rs.getShort(1), name, rs.getString(2));
            }
        }
    }

    List<Map<String, Object>> boards() {
        return inSnapshot(c -> {
            List<Map<String, Object>> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT b.name, b.origin, s.size, s.root FROM boards b JOIN board_state s USING (board_id) ORDER BY b.name");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("board", rs.getString(1));
                    m.put("origin", rs.getString(2));
                    m.put("size", rs.getLong(3));
                    m.put("root", Base64.getEncoder().encodeToString(rs.getBytes(4)));
                    out.add(m);
                }
            }
            return out;
        });
    }

    /** The latest signed checkpoint note of a board. */
    String latestCheckpoint(String name) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            Checkpointed cp = latest(c, b);
            if (cp == null) {
                throw ApiException.notFound("board '" + name + "' has no checkpoint yet");
            }
            return cp.note();
        });
    }

    record Checkpointed(long size, byte[] root, String note) {
    }

    private static Checkpointed latest(Connection c, Board b) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT size, root, note FROM checkpoints WHERE board_id = ? ORDER BY size DESC LIMIT 1")) {
            ps.setShort(1, b.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Checkpointed(rs.getLong(1), rs.getBytes(2), rs.getString(3)) : null;
            }
        }
    }

    private static long size(Connection c, Board b) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT size FROM board_state WHERE board_id = ?")) {
            ps.setShort(1, b.id());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    Map<String, Object> record(String name, long id) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, created, statement_ts, kind, sender_key, user_id, username, election_id, area_id, "
                            + "ballot_id, delivery_id, statement, schema_id, kafka_partition, kafka_offset "
                            + "FROM records WHERE board_id = ? AND id = ?")) {
                ps.setShort(1, b.id());
                ps.setLong(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw ApiException.notFound("board '" + name + "' has no record " + id);
                    }
                    byte[] statement = rs.getBytes(12);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("board", name);
                    m.put("id", rs.getLong(1));
                    m.put("created", rs.getTimestamp(2).toInstant().toString());
                    m.put("statement_time", rs.getTimestamp(3).toInstant().toString());
                    m.put("kind", StatementKinds.name(rs.getShort(4)));
                    m.put("sender_key", Base64.getEncoder().encodeToString(rs.getBytes(5)));
                    m.put("user_id", rs.getString(6));
                    m.put("username", rs.getString(7));
                    m.put("election_id", rs.getString(8));
                    m.put("area_id", rs.getString(9));
                    m.put("ballot_id", rs.getString(10));
                    m.put("delivery_id", rs.getString(11));
                    m.put("statement", Base64.getEncoder().encodeToString(statement));
                    m.put("leaf_hash", Base64.getEncoder().encodeToString(Hashes.leafHash(statement)));
                    m.put("schema_id", rs.getInt(13));
                    m.put("kafka_partition", rs.getInt(14));
                    m.put("kafka_offset", rs.getLong(15));
                    return m;
                }
            }
        });
    }

    /** Inclusion proof of record {@code id} at {@code size} (null = the latest checkpoint). */
    Map<String, Object> inclusionProof(String name, long id, Long requestedSize) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            Checkpointed cp = latest(c, b);
            long treeSize = size(c, b);
            long size;
            if (requestedSize == null) {
                if (cp == null) {
                    throw ApiException.notFound("board '" + name + "' has no checkpoint yet");
                }
                size = cp.size();
            } else {
                size = requestedSize;
                if (size < 1 || size > treeSize) {
                    throw ApiException.badRequest("size must be between 1 and the board's size " + treeSize + ", got " + size);
                }
            }
            if (id >= size) {
                throw ApiException.badRequest("record " + id + " is not in the tree of size " + size
                        + " (IDs run from 0 to " + (size - 1) + ")");
            }
            List<byte[]> proof = ProofBuilder.inclusion(id, size, new PgTileSource(c, b.id()));
            byte[] leaf;
            try (PreparedStatement ps = c.prepareStatement("SELECT statement FROM records WHERE board_id = ? AND id = ?")) {
                ps.setShort(1, b.id());
                ps.setLong(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("record " + id + " of board " + name + " is missing below size " + size);
                    }
                    leaf = Hashes.leafHash(rs.getBytes(1));
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("board", name);
            m.put("index", id);
            m.put("size", size);
            m.put("leaf_hash", Base64.getEncoder().encodeToString(leaf));
            List<String> hashes = new ArrayList<>();
            for (byte[] h : proof) {
                hashes.add(Base64.getEncoder().encodeToString(h));
            }
            m.put("hashes", hashes);
            m.put("root", Base64.getEncoder().encodeToString(ProofBuilder.rootAt(size, new PgTileSource(c, b.id()))));
            if (cp != null && cp.size() == size) {
                m.put("checkpoint", cp.note());
            }
            return m;
        });
    }
}
