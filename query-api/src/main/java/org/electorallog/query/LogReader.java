package org.electorallog.query;

import org.electorallog.store.CounterKey;
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
                CHECKPOINT_SQL)) {
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
                    "SELECT r.id, r.created, r.statement_ts, r.kind, s.public_key, r.user_id, r.username, r.election_id, "
                            + "r.area_id, r.ballot_id, r.delivery_id, r.statement, r.schema_id, r.kafka_partition, r.kafka_offset "
                            + "FROM records r LEFT JOIN senders s USING (sender_id) WHERE r.board_id = ? AND r.id = ?")) {
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

    /**
     * The ballot locator: a voter's own cast votes in an election, newest first, {@code limit} per
     * page after {@code beforeId} (null = from the newest). Served by records_user (a voter's few
     * rows, filtered to their cast votes of the election); a ballot ID narrows them further.
     */
    List<Map<String, Object>> ballots(String name, String userId, String electionId, String ballotId, Long beforeId, int limit) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            List<Map<String, Object>> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(BALLOTS_SQL)) {
                ps.setShort(1, b.id());
                ps.setString(2, userId);
                ps.setString(3, electionId);
                ps.setLong(4, beforeId == null ? Long.MAX_VALUE : beforeId);
                ps.setString(5, ballotId);
                ps.setString(6, ballotId);
                ps.setInt(7, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("id", rs.getLong(1));
                        m.put("statement_time", rs.getTimestamp(2).toInstant().toString());
                        m.put("kind", "CAST_VOTE");
                        m.put("ballot_id", rs.getString(3));
                        out.add(m);
                    }
                }
            }
            return out;
        });
    }

    /** The latest signed checkpoint of a board (the checkpoints primary key, backwards). */
    static final String CHECKPOINT_SQL = "SELECT size, root, note FROM checkpoints WHERE board_id = ? ORDER BY size DESC LIMIT 1";

    /** The ballot locator's page query (exposed for the plan test). */
    static final String BALLOTS_SQL = "SELECT id, statement_ts, ballot_id FROM records WHERE board_id = ? AND kind = 1 "
            + "AND user_id = ? AND election_id = ? AND id < ? AND (?::text IS NULL OR ballot_id = ?::text) ORDER BY id DESC LIMIT ?";

    /** Counts from the per-board counters, in constant time: all, with a user, by kind, by election, by election and kind. */
    Map<String, Object> counts(String name) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            long total = 0;
            long withUser = 0;
            Map<String, Long> byElectionAll = new java.util.TreeMap<>();
            Map<String, Long> byKind = new java.util.TreeMap<>();
            Map<String, Map<String, Long>> byElection = new java.util.TreeMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT kind, election_id, n FROM counters WHERE board_id = ?")) {
                ps.setShort(1, b.id());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        short kind = rs.getShort(1);
                        String election = rs.getString(2);
                        long n = rs.getLong(3);
                        if (kind == CounterKey.ALL_KINDS && election.isEmpty()) {
                            total = n;
                        } else if (kind == CounterKey.ALL_KINDS) {
                            byElectionAll.put(election, n);
                        } else if (kind == CounterKey.WITH_USER) {
                            withUser = n;
                        } else if (election.isEmpty()) {
                            byKind.put(StatementKinds.name(kind), n);
                        } else {
                            byElection.computeIfAbsent(election, e -> new java.util.TreeMap<>()).put(StatementKinds.name(kind), n);
                        }
                    }
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("board", name);
            m.put("total", total);
            m.put("with_user", withUser);
            m.put("by_kind", byKind);
            m.put("by_election", byElectionAll);
            m.put("by_election_and_kind", byElection);
            return m;
        });
    }

    /** The current size of a board. */
    long boardSize(Connection c, Board b) throws SQLException {
        return size(c, b);
    }

    /**
     * A C2SP tlog-tiles hash tile at the requested width (a partial tile is the prefix of the stored
     * one); 404 when the tree is not that wide yet.
     */
    byte[] tile(String name, int level, long index, int width) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            long size = size(c, b);
            int available = org.electorallog.core.TileLayout.width(level, index, size);
            if (available < width) {
                throw ApiException.notFound("tile " + org.electorallog.core.TileLayout.tilePath(level, index, width)
                        + " does not exist yet: the board has " + size + " records");
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT hashes FROM tiles WHERE board_id = ? AND level = ? AND idx = ?")) {
                ps.setShort(1, b.id());
                ps.setShort(2, (short) level);
                ps.setLong(3, index);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("tile " + level + "/" + index + " of board " + name + " is missing");
                    }
                    byte[] hashes = rs.getBytes(1);
                    if (hashes.length < width * org.electorallog.core.Hashes.HASH_SIZE) {
                        throw new IllegalStateException("tile " + level + "/" + index + " of board " + name + " holds "
                                + hashes.length / 32 + " hashes, fewer than its size requires (" + width + "): run the audit");
                    }
                    return java.util.Arrays.copyOf(hashes, width * org.electorallog.core.Hashes.HASH_SIZE);
                }
            }
        });
    }

    /** A C2SP tlog-tiles entry bundle: the canonical statements of records [256N, 256N + width). */
    byte[] entries(String name, long index, int width) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            long size = size(c, b);
            int available = org.electorallog.core.TileLayout.width(0, index, size);
            if (available < width) {
                throw ApiException.notFound("entry bundle " + org.electorallog.core.TileLayout.entriesPath(index, width)
                        + " does not exist yet: the board has " + size + " records");
            }
            List<byte[]> entries = new ArrayList<>(width);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT statement FROM records WHERE board_id = ? AND id >= ? AND id < ? ORDER BY id")) {
                ps.setShort(1, b.id());
                ps.setLong(2, index * 256);
                ps.setLong(3, index * 256 + width);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        entries.add(rs.getBytes(1));
                    }
                }
            }
            if (entries.size() != width) {
                throw new IllegalStateException("board " + name + " is missing records in bundle " + index);
            }
            return org.electorallog.core.EntryBundle.encode(entries);
        });
    }

    /** RFC 6962 consistency proof between two sizes; {@code to} null = the latest checkpoint. */
    Map<String, Object> consistency(String name, long from, Long requestedTo) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            Checkpointed cp = latest(c, b);
            long treeSize = size(c, b);
            long to;
            if (requestedTo == null) {
                if (cp == null) {
                    throw ApiException.notFound("board '" + name + "' has no checkpoint yet");
                }
                to = cp.size();
            } else {
                to = requestedTo;
            }
            if (to < 1 || to > treeSize) {
                throw ApiException.badRequest("to must be between 1 and the board's size " + treeSize + ", got " + to);
            }
            if (from < 1 || from > to) {
                throw ApiException.badRequest("from must be between 1 and to (" + to + "), got " + from);
            }
            PgTileSource tiles = new PgTileSource(c, b.id());
            List<org.electorallog.core.Range> ranges = new ArrayList<>();
            ranges.add(new org.electorallog.core.Range(0, from));
            ranges.add(new org.electorallog.core.Range(0, to));
            List<org.electorallog.core.Range> proofRanges = org.electorallog.core.TreeMath.consistencyRanges(from, to);
            ranges.addAll(proofRanges);
            List<byte[]> hashes = ProofBuilder.hashRanges(ranges, tiles);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("board", name);
            m.put("from", from);
            m.put("to", to);
            m.put("from_root", b64(hashes.get(0)));
            m.put("to_root", b64(hashes.get(1)));
            m.put("hashes", b64(hashes.subList(2, hashes.size())));
            if (cp != null && cp.size() == to) {
                m.put("checkpoint", cp.note());
            }
            return m;
        });
    }

    /**
     * The proof of record {@code id} for a client that trusts the given checkpoint (a signed note):
     * inclusion at the trusted size, or inclusion at the latest checkpoint plus consistency from the
     * trusted size. A checkpoint of another board, or whose root is not this board's root at its size,
     * is a 409 (divergence).
     */
    Map<String, Object> proofFromTrusted(String name, long id, String trustedNote) {
        org.electorallog.core.Checkpoint trusted;
        try {
            trusted = org.electorallog.core.Checkpoint.parse(org.electorallog.core.SignedNote.parse(trustedNote).text());
        } catch (org.electorallog.core.ProofException e) {
            throw ApiException.badRequest("the body must be a signed checkpoint note (C2SP tlog-checkpoint): " + e.getMessage());
        }
        return inSnapshot(c -> {
            Board b = board(c, name);
            if (!trusted.origin().equals(b.origin())) {
                throw new ApiException(409, "divergence", "the checkpoint's origin '" + trusted.origin()
                        + "' is not this board's origin '" + b.origin() + "'");
            }
            Checkpointed cp = latest(c, b);
            long treeSize = size(c, b);
            if (trusted.size() < 1) {
                throw ApiException.badRequest("a trusted checkpoint of size 0 proves nothing");
            }
            long current = cp == null ? trusted.size() : Math.max(cp.size(), trusted.size());
            if (trusted.size() > treeSize) {
                throw new ApiException(409, "divergence", "the checkpoint has size " + trusted.size()
                        + " but this board has only " + treeSize + " records");
            }
            if (id >= current) {
                throw ApiException.notFound("record " + id + " is not yet in a checkpoint (latest size "
                        + (cp == null ? 0 : cp.size()) + "); retry shortly");
            }
            org.electorallog.core.RecordProof proof;
            try {
                proof = org.electorallog.core.RecordProof.build(id, trusted.size(), trusted.root(), current,
                        new PgTileSource(c, b.id()));
            } catch (org.electorallog.core.LogDivergenceException e) {
                throw new ApiException(409, "divergence", e.getMessage());
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("board", name);
            m.put("index", id);
            m.put("trusted_size", proof.trustedSize());
            m.put("size", proof.size());
            m.put("leaf_hash", b64(leafHash(c, b, id)));
            m.put("inclusion", b64(proof.inclusion()));
            m.put("consistency", b64(proof.consistency()));
            if (cp != null && cp.size() == proof.size()) {
                m.put("checkpoint", cp.note());
            }
            return m;
        });
    }

    /** The C2SP tlog-proof bundle of a record at the latest checkpoint. */
    String proofBundle(String name, long id) {
        return inSnapshot(c -> {
            Board b = board(c, name);
            Checkpointed cp = latest(c, b);
            if (cp == null || id >= cp.size()) {
                throw ApiException.notFound("record " + id + " is not yet in a checkpoint of board '" + name + "'; retry shortly");
            }
            List<byte[]> proof = ProofBuilder.inclusion(id, cp.size(), new PgTileSource(c, b.id()));
            return new org.electorallog.core.TlogProof(null, id, proof, cp.note()).format();
        });
    }

    private static byte[] leafHash(Connection c, Board b, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT statement FROM records WHERE board_id = ? AND id = ?")) {
            ps.setShort(1, b.id());
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw ApiException.notFound("board '" + b.name() + "' has no record " + id);
                }
                return Hashes.leafHash(rs.getBytes(1));
            }
        }
    }

    private static String b64(byte[] h) {
        return Base64.getEncoder().encodeToString(h);
    }

    private static List<String> b64(List<byte[]> hs) {
        List<String> out = new ArrayList<>(hs.size());
        for (byte[] h : hs) {
            out.add(b64(h));
        }
        return out;
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
            // the root and the audit path in one tile query
            List<org.electorallog.core.Range> ranges = new ArrayList<>();
            ranges.add(new org.electorallog.core.Range(0, size));
            ranges.addAll(org.electorallog.core.TreeMath.inclusionRanges(id, size));
            List<byte[]> hashes = ProofBuilder.hashRanges(ranges, new PgTileSource(c, b.id()));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("board", name);
            m.put("index", id);
            m.put("size", size);
            m.put("leaf_hash", b64(leafHash(c, b, id)));
            m.put("hashes", b64(hashes.subList(1, hashes.size())));
            m.put("root", b64(hashes.get(0)));
            if (cp != null && cp.size() == size) {
                m.put("checkpoint", cp.note());
            }
            return m;
        });
    }
}
