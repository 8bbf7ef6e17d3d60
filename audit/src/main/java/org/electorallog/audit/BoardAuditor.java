package org.electorallog.audit;

import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileTree;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.StatementKinds;
import org.electorallog.store.CounterKey;

/**
 * The full audit of one board (BRIEF invariant 5), in one read-only REPEATABLE READ snapshot, in
 * linear time: keyset pages of records bounded on both sides of the ID range; for each record, its
 * stored columns against its canonical bytes, its signatures, and its leaf against the stored level-0
 * tile; every tile recomputed and compared; the root and size; every stored checkpoint (signature,
 * origin, root at its size); the counters against the rows; gap-free IDs and unique delivery IDs.
 */
public final class BoardAuditor {
    private final DataSource db;
    private final AuditOptions options;

    public BoardAuditor(DataSource db, AuditOptions options) {
        this.db = db;
        this.options = options;
    }

    /** Progress of a running audit, readable from other threads. */
    public static final class Progress {
        final AtomicLong checked = new AtomicLong();
        final AtomicLong total = new AtomicLong(-1);

        public long checked() {
            return checked.get();
        }

        /** The board's size once known, else -1. */
        public long total() {
            return total.get();
        }
    }

    /** The SQL of one audit page (a bounded ID range), exposed for the plan test. */
    public static final String PAGE_SQL = "SELECT r.id, r.delivery_id, r.statement, r.kind, r.statement_ts, r.sender_id, "
            + "r.user_id, r.username, r.election_id, r.area_id, r.ballot_id, r.sender_signature, r.system_signature "
            + "FROM records r WHERE r.board_id = ? AND r.id >= ? AND r.id < ? ORDER BY r.id";
    /** Every sender key, read once per audit in its snapshot (a few rows: one per sending service). */
    static final String SENDERS_SQL = "SELECT sender_id, public_key FROM senders";

    /** One record row as the audit reads it. */
    record Row(long id, String deliveryId, byte[] statement, short kind, Long statementMillis, byte[] senderKey,
               String userId, String username, String electionId, String areaId, String ballotId,
               byte[] senderSignature, byte[] systemSignature) {
    }

    /** The rows and stored tiles of one page of IDs. */
    record Page(long start, List<Row> rows, Map<TileKey, byte[]> tiles) {
    }

    private static final Page END = new Page(-1, List.of(), Map.of());

    /**
     * Audits a board. Pages are read on a second connection that imports the first one's snapshot
     * ({@code pg_export_snapshot}), one page ahead of the checks, so PostgreSQL and the audit work at
     * the same time; the data source must be able to lend two connections.
     */
    public AuditResult audit(String boardName, Progress progress) throws SQLException {
        long t0 = System.nanoTime();
        AuditResult result = new AuditResult(boardName);
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                run(c, boardName, progress, result, t0);
            } finally {
                c.rollback();
            }
        }
        return result;
    }

    private static String exportSnapshot(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT pg_export_snapshot()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Reads pages [0, limit) on its own connection in the exported snapshot, into {@code queue}. */
    private void readPages(String snapshot, short boardId, long limit, long size,
                           java.util.concurrent.BlockingQueue<Object> queue) {
        try (Connection r = db.getConnection()) {
            r.setAutoCommit(false);
            r.setReadOnly(true);
            r.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                try (PreparedStatement set = r.prepareStatement("SET TRANSACTION SNAPSHOT '" + snapshot.replace("'", "") + "'")) {
                    set.execute();
                }
                Map<Integer, byte[]> senders = new java.util.HashMap<>();
                try (ResultSet rs = r.createStatement().executeQuery(SENDERS_SQL)) {
                    while (rs.next()) {
                        senders.put(rs.getInt(1), rs.getBytes(2));
                    }
                }
                int page = options.pageSize();
                try (PreparedStatement ps = r.prepareStatement(PAGE_SQL)) {
                    for (long start = 0; start < limit; start += page) {
                        Map<TileKey, byte[]> tiles = tiles(r, boardId, start, start + page, size);
                        List<Row> rows = new ArrayList<>(page);
                        ps.setShort(1, boardId);
                        ps.setLong(2, start);
                        ps.setLong(3, start + page);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                Timestamp ts = rs.getTimestamp(5);
                                rows.add(new Row(rs.getLong(1), rs.getString(2), rs.getBytes(3), rs.getShort(4),
                                        ts == null ? null : ts.getTime(), senders.get(rs.getInt(6)), rs.getString(7), rs.getString(8),
                                        rs.getString(9), rs.getString(10), rs.getString(11), rs.getBytes(12), rs.getBytes(13)));
                            }
                        }
                        queue.put(new Page(start, rows, tiles));
                    }
                }
            } finally {
                r.rollback();
            }
            queue.put(END);
        } catch (SQLException | RuntimeException e) {
            queue.offer(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(Connection c, String boardName, Progress progress, AuditResult result, long t0) throws SQLException {
        short boardId;
        String origin;
        long size;
        byte[] storedRoot;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT b.board_id, b.origin, s.size, s.root FROM boards b JOIN board_state s USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, boardName);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("there is no board named '" + boardName + "'");
                }
                boardId = rs.getShort(1);
                origin = rs.getString(2);
                size = rs.getLong(3);
                storedRoot = rs.getBytes(4);
            }
        }
        progress.total.set(size);
        List<long[]> checkpointSizes = new ArrayList<>();
        List<String> checkpointNotes = new ArrayList<>();
        List<byte[]> checkpointRoots = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT size, root, note FROM checkpoints WHERE board_id = ? ORDER BY size")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    checkpointSizes.add(new long[] {rs.getLong(1)});
                    checkpointRoots.add(rs.getBytes(2));
                    checkpointNotes.add(rs.getString(3));
                }
            }
        }
        Map<Long, byte[]> rootsAt = new HashMap<>();
        java.util.TreeSet<Long> wanted = new java.util.TreeSet<>();
        checkpointSizes.forEach(s -> wanted.add(s[0]));

        TileTree tree = TileTree.empty();
        Map<CounterKey, Long> counters = new HashMap<>();
        long expected = 0;
        long records = 0;
        long limit = Math.max(size, maxId(c, boardId) + 1);
        java.util.concurrent.BlockingQueue<Object> queue = new java.util.concurrent.ArrayBlockingQueue<>(2);
        String snapshot = exportSnapshot(c);
        final short board = boardId;
        Thread reader = new Thread(() -> readPages(snapshot, board, limit, size, queue), "audit-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            while (true) {
                Object next;
                try {
                    next = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("audit interrupted", e);
                }
                if (next instanceof SQLException e) {
                    throw e;
                }
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                Page pg = (Page) next;
                if (pg == END) {
                    break;
                }
                Map<TileKey, byte[]> storedTiles = pg.tiles();
                for (Row row : pg.rows()) {
                    long id = row.id();
                    if (id >= size) {
                        result.add(Finding.Kind.EXTRA_RECORD, id, "record " + id + " is at or above the board's size " + size);
                        continue;
                    }
                    while (expected < id) {
                        result.add(Finding.Kind.ID_GAP, expected, "record " + expected + " is missing");
                        appendStoredLeaf(tree, storedTiles, expected, result);
                        expected++;
                        captureRoot(tree, wanted, rootsAt);
                    }
                    checkRecord(row, boardName, result, counters);
                    byte[] leaf = Hashes.leafHash(row.statement());
                    byte[] stored = storedLeaf(storedTiles, id);
                    if (stored != null && !MessageDigest.isEqual(stored, leaf)) {
                        result.add(Finding.Kind.LEAF_MISMATCH, id, "the leaf of record " + id
                                + " differs from the stored tile hash at its position");
                    }
                    tree.appendLeafHash(leaf);
                    expected++;
                    records++;
                    captureRoot(tree, wanted, rootsAt);
                }
                compareTiles(tree.drainChangedTiles(), storedTiles, result);
                progress.checked.set(Math.min(expected, size));
            }
        } finally {
            reader.interrupt();
        }
        while (expected < size) {
            result.add(Finding.Kind.ID_GAP, expected, "record " + expected + " is missing");
            expected++;
        }
        if (tree.size() == size && !MessageDigest.isEqual(tree.root(), storedRoot)) {
            result.add(Finding.Kind.ROOT_MISMATCH, null, "the stored root at size " + size + " is "
                    + Hex.encode(storedRoot) + ", the records give " + Hex.encode(tree.root()));
        }
        checkTileCount(c, boardId, size, result);
        checkCheckpoints(checkpointSizes, checkpointRoots, checkpointNotes, rootsAt, origin, size, result);
        checkCounters(c, boardId, counters, result);
        checkDeliveryIds(c, boardId, result);
        result.finish(size, records, checkpointNotes.size(), (System.nanoTime() - t0) / 1e9);
    }

    private static long maxId(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT max(id) FROM records WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long v = rs.getLong(1);
                return rs.wasNull() ? -1 : v;
            }
        }
    }

    private static void captureRoot(TileTree tree, java.util.NavigableSet<Long> wanted, Map<Long, byte[]> rootsAt) {
        if (wanted.contains(tree.size())) {
            rootsAt.put(tree.size(), tree.root());
        }
    }

    /** Keeps the recomputed tree aligned past a missing record by taking the stored hash at its position. */
    private static void appendStoredLeaf(TileTree tree, Map<TileKey, byte[]> tiles, long id, AuditResult result) {
        byte[] stored = storedLeaf(tiles, id);
        tree.appendLeafHash(stored != null ? stored : new byte[Hashes.HASH_SIZE]);
    }

    private static byte[] storedLeaf(Map<TileKey, byte[]> tiles, long id) {
        byte[] tile = tiles.get(new TileKey(0, id / 256));
        int pos = (int) (id % 256);
        if (tile == null || tile.length < (pos + 1) * 32) {
            return null;
        }
        return Arrays.copyOfRange(tile, pos * 32, pos * 32 + 32);
    }

    private void checkRecord(Row row, String board, AuditResult result, Map<CounterKey, Long> counters) {
        long id = row.id();
        short kind = row.kind();
        String election = row.electionId();
        for (CounterKey k : CounterKey.of(kind, election, row.userId() != null)) {
            counters.merge(k, 1L, Long::sum);
        }
        byte[] statement = row.statement();
        Map<String, Object> f;
        try {
            f = CanonicalStatement.decodeFields(statement);
        } catch (IllegalArgumentException e) {
            result.add(Finding.Kind.UNDECODABLE_STATEMENT, id, e.getMessage());
            return;
        }
        byte[] senderKey = row.senderKey();
        field(result, id, "board", f.get("board"), board);
        field(result, id, "delivery_id", f.get("delivery_id"), row.deliveryId());
        field(result, id, "kind", f.get("kind"), kind >= 0 && kind < StatementKinds.NAMES.size() ? StatementKinds.name(kind) : "#" + kind);
        field(result, id, "statement_timestamp", f.get("statement_timestamp"), row.statementMillis());
        if (!(f.get("sender_public_key") instanceof byte[] k) || !Arrays.equals(k, senderKey)) {
            result.add(Finding.Kind.RECORD_FIELD_MISMATCH, id, senderKey == null
                    ? "sender_id does not resolve to a key in senders" : "sender key differs from the canonical statement");
        }
        field(result, id, "user_id", f.get("user_id"), row.userId());
        field(result, id, "username", f.get("username"), row.username());
        field(result, id, "election_id", f.get("election_id"), election);
        field(result, id, "area_id", f.get("area_id"), row.areaId());
        field(result, id, "ballot_id", f.get("ballot_id"), row.ballotId());
        byte[] senderSig = row.senderSignature();
        byte[] systemSig = row.systemSignature();
        if (senderSig != null) {
            if (!SigningKey.verify(senderKey, statement, senderSig)) {
                result.add(Finding.Kind.BAD_SIGNATURE, id, "the sender signature does not verify");
            }
        } else if (options.requireSenderSignature()) {
            result.add(Finding.Kind.UNSIGNED, id, "no sender signature");
        }
        if (!options.systemKeys().isEmpty()) {
            if (systemSig == null) {
                result.add(Finding.Kind.UNSIGNED, id, "no system signature");
            } else if (options.systemKeys().stream().noneMatch(k -> SigningKey.verify(k, statement, systemSig))) {
                result.add(Finding.Kind.BAD_SIGNATURE, id, "the system signature does not verify with any system key");
            }
        }
    }

    private static void field(AuditResult result, long id, String name, Object canonical, Object stored) {
        if (!Objects.equals(canonical, stored)) {
            result.add(Finding.Kind.RECORD_FIELD_MISMATCH, id, name + " is stored as '" + stored
                    + "' but the canonical statement says '" + canonical + "'");
        }
    }

    /** The stored tiles at every level that cover leaves [start, end), at most the board's size. */
    private static Map<TileKey, byte[]> tiles(Connection c, short boardId, long start, long end, long size) throws SQLException {
        Map<TileKey, byte[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT level, idx, hashes FROM tiles WHERE board_id = ? AND level = ? AND idx >= ? AND idx <= ?")) {
            for (int level = 0; level <= 7; level++) {
                long span = 1L << (8 * level);
                long first = (start / span) / 256;
                long last = (Math.max(start, end - 1) / span) / 256;
                if (level > 0 && (size >>> (8 * level)) == 0) {
                    break;
                }
                ps.setShort(1, boardId);
                ps.setShort(2, (short) level);
                ps.setLong(3, first);
                ps.setLong(4, last);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getBytes(3));
                    }
                }
            }
        }
        return out;
    }

    private static void compareTiles(List<Tile> recomputed, Map<TileKey, byte[]> stored, AuditResult result) {
        for (Tile t : recomputed) {
            byte[] s = stored.get(t.key());
            String path = TileLayout.tilePath(t.key().level(), t.key().index(), t.width());
            long firstRecord = t.key().index() * 256L << (8 * t.key().level());
            if (s == null) {
                result.add(Finding.Kind.TILE_MISMATCH, firstRecord, "tile " + path + " is missing");
            } else if (s.length < t.hashes().length
                    || !MessageDigest.isEqual(Arrays.copyOf(s, t.hashes().length), t.hashes())) {
                result.add(Finding.Kind.TILE_MISMATCH, firstRecord, "tile " + path + " differs from the tile recomputed from the records");
            }
        }
    }

    /** Every stored tile must exist at this size with exactly its width: no extra tiles, no over-long ones. */
    private static void checkTileCount(Connection c, short boardId, long size, AuditResult result) throws SQLException {
        // only partial tiles and tiles beyond the last full one need a look; missing tiles are found above
        try (PreparedStatement ps = c.prepareStatement("SELECT level, idx, length(hashes) FROM tiles WHERE board_id = ? "
                + "AND (length(hashes) <> 8192 OR (idx + 1) * 256 > (?::bigint >> (8 * level))) ORDER BY level, idx")) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int level = rs.getShort(1);
                    long idx = rs.getLong(2);
                    int width = TileLayout.width(level, idx, size);
                    if (width * 32 != rs.getInt(3)) {
                        result.add(Finding.Kind.TILE_MISMATCH, null, "tile " + level + "/" + idx + " holds "
                                + rs.getInt(3) / 32 + " hashes; at size " + size + " it must hold " + width);
                    }
                }
            }
        }
    }

    private void checkCheckpoints(List<long[]> sizes, List<byte[]> roots, List<String> notes, Map<Long, byte[]> rootsAt,
                                  String origin, long size, AuditResult result) {
        for (int i = 0; i < notes.size(); i++) {
            long s = sizes.get(i)[0];
            String note = notes.get(i);
            try {
                Checkpoint cp = options.logKeys().isEmpty() ? Checkpoint.parse(SignedNote.parse(note).text())
                        : Checkpoint.open(note, options.logKeys());
                if (!cp.origin().equals(origin)) {
                    result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s + " has origin '" + cp.origin() + "'");
                }
                if (cp.size() != s || !MessageDigest.isEqual(cp.root(), roots.get(i))) {
                    result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint row at size " + s + " disagrees with its note");
                }
                byte[] actual = rootsAt.get(s);
                if (s > size) {
                    result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s + " is beyond the board's size " + size);
                } else if (actual == null || !MessageDigest.isEqual(actual, cp.root())) {
                    result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s
                            + " does not have the root of the records at that size");
                }
            } catch (ProofException e) {
                result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s + ": " + e.getMessage());
            }
        }
    }

    private static void checkCounters(Connection c, short boardId, Map<CounterKey, Long> counted, AuditResult result) throws SQLException {
        Map<CounterKey, Long> stored = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT kind, election_id, n FROM counters WHERE board_id = ?")) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    try {
                        stored.put(new CounterKey(rs.getShort(1), rs.getString(2)), rs.getLong(3));
                    } catch (IllegalArgumentException | NullPointerException e) {
                        result.add(Finding.Kind.COUNTER_MISMATCH, null, "counter row (kind " + rs.getShort(1) + ", election "
                                + rs.getString(2) + ") is no counter the projector keeps: " + e.getMessage());
                    }
                }
            }
        }
        java.util.Set<CounterKey> keys = new java.util.TreeSet<>(stored.keySet());
        keys.addAll(counted.keySet());
        for (CounterKey k : keys) {
            long a = stored.getOrDefault(k, 0L);
            long b = counted.getOrDefault(k, 0L);
            if (a != b) {
                result.add(Finding.Kind.COUNTER_MISMATCH, null, k.describe() + " is " + a + " but the records count " + b);
            }
        }
    }

    private static void checkDeliveryIds(Connection c, short boardId, AuditResult result) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT i.indisunique AND i.indisvalid FROM pg_index i "
                + "WHERE i.indexrelid = to_regclass('records_delivery_id')")) {
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    result.add(Finding.Kind.DUPLICATE_DELIVERY_ID, null,
                            "the unique index records_delivery_id is missing or invalid: delivery IDs are not guaranteed unique");
                    scanDeliveryIds(c, boardId, result);
                }
            }
        }
    }

    /** Without the index: a sorted pass over the board's delivery IDs, comparing neighbours. */
    private static void scanDeliveryIds(Connection c, short boardId, AuditResult result) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT delivery_id, id FROM records WHERE board_id = ? ORDER BY delivery_id, id")) {
            ps.setFetchSize(10_000);
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                String previous = null;
                while (rs.next()) {
                    String d = rs.getString(1);
                    if (d.equals(previous)) {
                        result.add(Finding.Kind.DUPLICATE_DELIVERY_ID, rs.getLong(2), "delivery ID " + d + " is repeated");
                    }
                    previous = d;
                }
            }
        }
    }
}
