package org.electorallog.projector;

import java.security.MessageDigest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.SchemaRegistry;
import org.electorallog.schemas.StatementKinds;
import org.electorallog.store.CounterKey;

/**
 * Writes one batch of one partition in ONE PostgreSQL transaction: records, tiles, counters, board
 * state, a signed checkpoint per changed board, writer schemas, and the partition's next offset by
 * compare-and-set on (epoch, expected offset). Drops repeated delivery IDs (first copy kept).
 *
 * <p>On any failure the transaction is rolled back and the caller must drop its cached
 * {@link BoardProjection}s, whose trees were already advanced.
 */
final class BatchWriter {
    private final String topic;
    private final NoteSigner signer;
    private final String originPrefix;
    private final SchemaRegistry registry;
    private final long checkpointEveryMillis;
    private final Set<Integer> schemasRecorded = new HashSet<>();
    /** Boards written since their last signed checkpoint, and when that checkpoint was signed. */
    private final Map<String, Long> unsigned = new LinkedHashMap<>();
    private final Map<String, Long> lastSigned = new HashMap<>();

    BatchWriter(String topic, NoteSigner signer, String originPrefix, SchemaRegistry registry) {
        this(topic, signer, originPrefix, registry, java.time.Duration.ZERO);
    }

    BatchWriter(String topic, NoteSigner signer, String originPrefix, SchemaRegistry registry,
                java.time.Duration checkpointEvery) {
        this.topic = topic;
        this.signer = signer;
        this.originPrefix = originPrefix;
        this.registry = registry;
        this.checkpointEveryMillis = checkpointEvery.toMillis();
    }

    /** What a batch did; {@code refused} events are to be dead-lettered before the batch commits. */
    record Result(int written, int duplicates, Set<String> boards, List<Refused> refused) {
    }

    /** An event the batch left out for its content (a delivery-key collision), with the reason for its dead letter. */
    record Refused(PendingEvent event, BadEventException.Reason reason, String message) {
    }

    /** What dedup kept, and what it refused. */
    private record Dedup(List<PendingEvent> fresh, int duplicates, List<Refused> refused) {
    }

    /**
     * Takes the partition for a new task: creates its offset row if needed and bumps its epoch.
     * Returns {next offset, epoch}.
     */
    long[] acquire(Connection c, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO partition_offsets (topic, partition, next_offset, epoch) VALUES (?, ?, 0, 1) "
                        + "ON CONFLICT (topic, partition) DO UPDATE SET epoch = partition_offsets.epoch + 1 "
                        + "RETURNING next_offset, epoch")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    Result write(Connection c, int partition, long epoch, long expectedOffset, long nextOffset,
                 List<PendingEvent> events, Map<String, BoardProjection> boards) throws SQLException {
        Map<String, List<PendingEvent>> byBoard = new LinkedHashMap<>();
        for (PendingEvent e : events) {
            byBoard.computeIfAbsent(e.statement().board(), b -> new ArrayList<>()).add(e);
        }
        int written = 0;
        int duplicates = 0;
        List<Refused> refused = new ArrayList<>();
        recordSchemas(c, events);
        for (Map.Entry<String, List<PendingEvent>> entry : byBoard.entrySet()) {
            BoardProjection board = boards.get(entry.getKey());
            if (board == null) {
                board = loadOrCreate(c, entry.getKey(), entry.getValue().get(0).kafkaTimestamp());
                boards.put(entry.getKey(), board);
            }
            Dedup dedup = dropRepeated(c, board, entry.getValue());
            List<PendingEvent> fresh = dedup.fresh();
            int dropped = dedup.duplicates();
            duplicates += dropped;
            refused.addAll(dedup.refused());
            if (!fresh.isEmpty()) {
                insertRecords(c, board, fresh);
                writeTiles(c, board);
                addCounters(c, board, fresh);
            }
            updateState(c, board, dropped);
            if (!fresh.isEmpty()) {
                unsigned.putIfAbsent(board.name, System.currentTimeMillis());
            }
            written += fresh.size();
        }
        signDue(c, System.currentTimeMillis());
        moveOffset(c, partition, epoch, expectedOffset, nextOffset);
        return new Result(written, duplicates, byBoard.keySet(), refused);
    }

    private BoardProjection loadOrCreate(Connection c, String name, long firstTimestamp) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT b.board_id, b.origin, s.size, s.root, s.last_created FROM boards b "
                        + "JOIN board_state s USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    short id = rs.getShort(1);
                    String origin = rs.getString(2);
                    long size = rs.getLong(3);
                    byte[] root = rs.getBytes(4);
                    Timestamp last = rs.getTimestamp(5);
                    TileTree tree = restoreTree(c, id, size);
                    if (!MessageDigest.isEqual(tree.root(), root)) {
                        throw new ProjectionStoppedException("board " + name + ": root recomputed from stored tiles at size "
                                + size + " differs from the stored root; the projection is damaged: run "
                                + "`electoral-log audit` and rebuild the projection from the topic (`electoral-log rebuild`)");
                    }
                    return new BoardProjection(id, name, origin, tree, last == null ? Long.MIN_VALUE : last.getTime());
                }
            }
        }
        String origin = originPrefix + name;
        short id;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO boards (board_id, name, origin, created) VALUES (nextval('board_ids'), ?, ?, ?) RETURNING board_id")) {
            ps.setString(1, name);
            ps.setString(2, origin);
            ps.setTimestamp(3, new Timestamp(firstTimestamp));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                id = rs.getShort(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO board_state (board_id, size, root) VALUES (?, 0, ?)")) {
            ps.setShort(1, id);
            ps.setBytes(2, Hashes.emptyRoot());
            ps.executeUpdate();
        }
        return new BoardProjection(id, name, origin, TileTree.empty(), Long.MIN_VALUE);
    }

    private static TileTree restoreTree(Connection c, short boardId, long size) throws SQLException {
        List<TileTree.EdgeTile> edge = TileTree.edgeTiles(size);
        Map<TileKey, byte[]> tiles = new HashMap<>();
        if (!edge.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT t.level, t.idx, t.hashes FROM tiles t JOIN unnest(?::smallint[], ?::bigint[]) AS k(level, idx) "
                            + "ON t.board_id = ? AND t.level = k.level AND t.idx = k.idx")) {
                Short[] levels = new Short[edge.size()];
                Long[] idxs = new Long[edge.size()];
                for (int i = 0; i < edge.size(); i++) {
                    levels[i] = (short) edge.get(i).key().level();
                    idxs[i] = edge.get(i).key().index();
                }
                ps.setArray(1, c.createArrayOf("smallint", levels));
                ps.setArray(2, c.createArrayOf("bigint", idxs));
                ps.setShort(3, boardId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        tiles.put(new TileKey(rs.getShort(1), rs.getLong(2)), rs.getBytes(3));
                    }
                }
            }
        }
        return TileTree.restore(size, tiles);
    }

    /**
     * Keeps the first copy of each delivery ID: drops repeats inside the batch and IDs already stored.
     * Stored IDs are found by their 16-byte key (the unique index records_delivery_id, V5) and then
     * compared in full. A later delivery ID whose key equals an earlier one's (a 2^64-work
     * collision) cannot be stored beside it: it is refused (dead-lettered with both IDs named),
     * never silently dropped as a duplicate, and the board goes on.
     */
    private static Dedup dropRepeated(Connection c, BoardProjection board, List<PendingEvent> events)
            throws SQLException {
        Map<String, PendingEvent> firstCopies = new LinkedHashMap<>();
        for (PendingEvent e : events) {
            firstCopies.putIfAbsent(e.statement().deliveryId(), e);
        }
        List<Refused> refused = new ArrayList<>();
        Map<java.nio.ByteBuffer, String> byKey = new HashMap<>();
        for (java.util.Iterator<PendingEvent> it = firstCopies.values().iterator(); it.hasNext(); ) {
            PendingEvent e = it.next();
            String id = e.statement().deliveryId();
            String other = byKey.putIfAbsent(java.nio.ByteBuffer.wrap(deliveryKey(id)), id);
            if (other != null) {
                refused.add(collision(board, e, other));
                it.remove();
            }
        }
        Set<String> stored = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(DELIVERY_LOOKUP_SQL)) {
            ps.setArray(1, c.createArrayOf("bytea", byKey.keySet().stream().map(java.nio.ByteBuffer::array).toArray(byte[][]::new)));
            ps.setShort(2, board.boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    if (firstCopies.containsKey(id)) {
                        stored.add(id);
                    } else {
                        String mine = byKey.get(java.nio.ByteBuffer.wrap(deliveryKey(id)));
                        refused.add(collision(board, firstCopies.remove(mine), id));
                    }
                }
            }
        }
        List<PendingEvent> out = new ArrayList<>(firstCopies.size());
        for (PendingEvent e : firstCopies.values()) {
            if (!stored.contains(e.statement().deliveryId())) {
                out.add(e);
            }
        }
        return new Dedup(out, events.size() - out.size() - refused.size(), refused);
    }

    /**
     * The stored delivery IDs among a batch's keys: one probe of records_delivery_id per key. LATERAL
     * with LIMIT 1 keeps it a probe per key whatever the statistics say; written as one
     * {@code = ANY(keys)} condition, a board created after the last ANALYZE was estimated at one row
     * and the planner walked the whole board through another (board_id, ...) index, evaluating the
     * key of every row: each batch then read the board, and a growing board slowed the projector
     * quadratically (seen in perf at 5M records: 700 records/s on a new board).
     */
    static final String DELIVERY_LOOKUP_SQL = "SELECT r.delivery_id FROM unnest(?::bytea[]) AS k(key) CROSS JOIN LATERAL "
            + "(SELECT delivery_id FROM records WHERE board_id = ? AND delivery_key(delivery_id) = k.key LIMIT 1) r";

    /** The key of a delivery ID in records_delivery_id: the first 16 bytes of SHA-256 over its UTF-8 bytes (SQL {@code delivery_key}). */
    static byte[] deliveryKey(String deliveryId) {
        return java.util.Arrays.copyOf(Hashes.sha256(deliveryId.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 16);
    }

    private static Refused collision(BoardProjection board, PendingEvent event, String earlier) {
        return new Refused(event, BadEventException.Reason.REFUSED, "board " + board.name + ": delivery ID '"
                + event.statement().deliveryId() + "' shares its 16-byte delivery key with the earlier '" + earlier
                + "'; the unique index records_delivery_id cannot hold both (choose another delivery ID)");
    }

    /** Whether this task still holds the partition at {@code epoch} (read in its own transaction). */
    boolean owns(Connection c, int partition, long epoch) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT epoch FROM partition_offsets WHERE topic = ? AND partition = ?")) {
            ps.setString(1, topic);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) == epoch;
            }
        }
    }

    /** The sender_id of each sender key of the batch, adding new keys to senders (in the batch transaction). */
    private static Map<java.nio.ByteBuffer, Integer> senderIds(Connection c, List<PendingEvent> events) throws SQLException {
        java.util.TreeSet<java.nio.ByteBuffer> keys = new java.util.TreeSet<>();
        for (PendingEvent e : events) {
            keys.add(java.nio.ByteBuffer.wrap(e.statement().senderPublicKey()));
        }
        byte[][] array = keys.stream().map(java.nio.ByteBuffer::array).toArray(byte[][]::new);
        Map<java.nio.ByteBuffer, Integer> out = new HashMap<>();
        // sorted keys: two projectors adding the same new keys lock them in the same order
        try (PreparedStatement add = c.prepareStatement("INSERT INTO senders (public_key) SELECT k FROM unnest(?::bytea[]) "
                + "AS u(k) WHERE NOT EXISTS (SELECT 1 FROM senders s WHERE s.public_key = u.k) ORDER BY k ON CONFLICT DO NOTHING");
             PreparedStatement find = c.prepareStatement("SELECT sender_id, public_key FROM senders WHERE public_key = ANY(?::bytea[])")) {
            add.setArray(1, c.createArrayOf("bytea", array));
            add.executeUpdate();
            find.setArray(1, c.createArrayOf("bytea", array));
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    out.put(java.nio.ByteBuffer.wrap(rs.getBytes(2)), rs.getInt(1));
                }
            }
        }
        if (out.size() != keys.size()) {
            throw new IllegalStateException("senders: " + keys.size() + " keys asked, " + out.size() + " found");
        }
        return out;
    }

    private static void insertRecords(Connection c, BoardProjection board, List<PendingEvent> events) throws SQLException {
        Map<java.nio.ByteBuffer, Integer> senders = senderIds(c, events);
        List<RecordRow> rows = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            DecodedStatement s = e.statement();
            long id = board.tree.size();
            board.tree.appendLeafHash(Hashes.leafHash(s.canonicalBytes()));
            board.lastCreatedMillis = Math.max(board.lastCreatedMillis, e.kafkaTimestamp());
            rows.add(new RecordRow(board.boardId, id, board.lastCreatedMillis, s.statementTimestamp(),
                    (short) StatementKinds.code(s.kind()), senders.get(java.nio.ByteBuffer.wrap(s.senderPublicKey())),
                    s.userId(), s.username(), s.electionId(),
                    s.areaId(), s.ballotId(), s.deliveryId(), s.canonicalBytes(), s.schemaId(), e.partition(), e.offset(),
                    s.senderSignature(), s.systemSignature()));
        }
        RecordInserter.DEFAULT.insert(c, rows);
    }

    private static void writeTiles(Connection c, BoardProjection board) throws SQLException {
        List<Tile> tiles = board.tree.drainChangedTiles();
        if (tiles.isEmpty()) {
            return;
        }
        Short[] levels = new Short[tiles.size()];
        Long[] idxs = new Long[tiles.size()];
        byte[][] hashes = new byte[tiles.size()][];
        for (int i = 0; i < tiles.size(); i++) {
            levels[i] = (short) tiles.get(i).key().level();
            idxs[i] = tiles.get(i).key().index();
            hashes[i] = tiles.get(i).hashes();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO tiles (board_id, level, idx, hashes) SELECT ?, u.level, u.idx, u.hashes "
                        + "FROM unnest(?::smallint[], ?::bigint[], ?::bytea[]) AS u(level, idx, hashes) "
                        + "ON CONFLICT (board_id, level, idx) DO UPDATE SET hashes = EXCLUDED.hashes")) {
            ps.setShort(1, board.boardId);
            ps.setArray(2, c.createArrayOf("smallint", levels));
            ps.setArray(3, c.createArrayOf("bigint", idxs));
            ps.setArray(4, c.createArrayOf("bytea", hashes));
            ps.executeUpdate();
        }
    }

    private static void addCounters(Connection c, BoardProjection board, List<PendingEvent> events) throws SQLException {
        Map<CounterKey, Long> deltas = new java.util.TreeMap<>();
        for (PendingEvent e : events) {
            DecodedStatement st = e.statement();
            for (CounterKey k : CounterKey.of((short) StatementKinds.code(st.kind()), st.electionId(), st.userId() != null)) {
                deltas.merge(k, 1L, Long::sum);
            }
        }
        int n = deltas.size();
        Short[] kinds = new Short[n];
        String[] elections = new String[n];
        Long[] counts = new Long[n];
        int i = 0;
        for (Map.Entry<CounterKey, Long> d : deltas.entrySet()) {
            kinds[i] = d.getKey().kind();
            elections[i] = d.getKey().electionId();
            counts[i] = d.getValue();
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO counters (board_id, kind, election_id, n) SELECT ?, u.kind, u.election_id, u.n "
                        + "FROM unnest(?::smallint[], ?::text[], ?::bigint[]) AS u(kind, election_id, n) "
                        + "ON CONFLICT (board_id, kind, election_id) DO UPDATE SET n = counters.n + EXCLUDED.n")) {
            ps.setShort(1, board.boardId);
            ps.setArray(2, c.createArrayOf("smallint", kinds));
            ps.setArray(3, c.createArrayOf("text", elections));
            ps.setArray(4, c.createArrayOf("bigint", counts));
            ps.executeUpdate();
        }
    }

    private static void updateState(Connection c, BoardProjection board, int dropped) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE board_state SET size = ?, root = ?, last_created = ?, "
                        + "duplicates_dropped = duplicates_dropped + ? WHERE board_id = ?")) {
            ps.setLong(1, board.tree.size());
            ps.setBytes(2, board.tree.root());
            ps.setTimestamp(3, board.lastCreatedMillis == Long.MIN_VALUE ? null : new Timestamp(board.lastCreatedMillis));
            ps.setLong(4, dropped);
            ps.setShort(5, board.boardId);
            ps.executeUpdate();
        }
    }

    /** Whether some board waits for a checkpoint whose interval has passed. */
    boolean checkpointsDue(long nowMillis) {
        for (String board : unsigned.keySet()) {
            if (due(board, nowMillis)) {
                return true;
            }
        }
        return false;
    }

    private boolean due(String board, long nowMillis) {
        return checkpointEveryMillis == 0 || nowMillis - lastSigned.getOrDefault(board, Long.MIN_VALUE / 2) >= checkpointEveryMillis;
    }

    /**
     * Signs a checkpoint of every written board whose interval has passed, from the board state as
     * stored in this transaction. Checkpoint notes are deterministic (Ed25519), so two writers signing
     * the same size store the same note, and the second insert does nothing.
     */
    void signDue(Connection c, long nowMillis) throws SQLException {
        for (java.util.Iterator<String> it = unsigned.keySet().iterator(); it.hasNext(); ) {
            String board = it.next();
            if (due(board, nowMillis)) {
                signStored(c, board);
                lastSigned.put(board, nowMillis);
                it.remove();
            }
        }
    }

    private void signStored(Connection c, String board) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO checkpoints (board_id, size, root, note) SELECT b.board_id, s.size, s.root, ? "
                        + "FROM boards b JOIN board_state s USING (board_id) WHERE b.name = ? AND s.size = ? "
                        + "ON CONFLICT (board_id, size) DO NOTHING");
             PreparedStatement state = c.prepareStatement(
                     "SELECT b.origin, s.size, s.root FROM boards b JOIN board_state s USING (board_id) WHERE b.name = ?")) {
            state.setString(1, board);
            try (ResultSet rs = state.executeQuery()) {
                if (!rs.next() || rs.getLong(2) == 0) {
                    return;
                }
                String note = new Checkpoint(rs.getString(1), rs.getLong(2), rs.getBytes(3)).sign(signer);
                ps.setString(1, note);
                ps.setString(2, board);
                ps.setLong(3, rs.getLong(2));
                ps.executeUpdate();
            }
        }
    }

    /** Signs every board whose current size has no checkpoint yet (after a predecessor died). */
    void signUncheckpointedBoards(Connection c) throws SQLException {
        List<String> boards = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT b.name FROM boards b JOIN board_state s USING (board_id) WHERE s.size > 0 AND NOT EXISTS "
                        + "(SELECT 1 FROM checkpoints k WHERE k.board_id = s.board_id AND k.size = s.size)");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                boards.add(rs.getString(1));
            }
        }
        for (String b : boards) {
            signStored(c, b);
        }
    }

    private void recordSchemas(Connection c, List<PendingEvent> events) throws SQLException {
        for (PendingEvent e : events) {
            int id = e.statement().schemaId();
            if (schemasRecorded.contains(id)) {
                continue;
            }
            Schema schema;
            try {
                schema = registry.byId(id);
            } catch (SchemaRegistry.UnknownSchemaException ex) {
                throw new IllegalStateException("schema " + id + " decoded an event but is now unknown", ex);
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO writer_schemas (schema_id, fingerprint, schema_json) VALUES (?, ?, ?) "
                            + "ON CONFLICT (schema_id) DO NOTHING")) {
                ps.setInt(1, id);
                ps.setBytes(2, Hashes.sha256(SchemaNormalization.toParsingForm(schema).getBytes(
                        java.nio.charset.StandardCharsets.UTF_8)));
                ps.setString(3, schema.toString());
                ps.executeUpdate();
            }
            schemasRecorded.add(id);
        }
    }

    private void moveOffset(Connection c, int partition, long epoch, long expected, long next) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE partition_offsets SET next_offset = ? WHERE topic = ? AND partition = ? AND epoch = ? AND next_offset = ?")) {
            ps.setLong(1, next);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            ps.setLong(4, epoch);
            ps.setLong(5, expected);
            if (ps.executeUpdate() != 1) {
                throw new FencedException("partition " + topic + "-" + partition + " is no longer ours at epoch " + epoch
                        + " and offset " + expected + ": another task took it; batch rolled back");
            }
        }
    }

    /** After a rollback: forget which writer schemas were recorded, since that may be undone. */
    void rolledBack() {
        schemasRecorded.clear();
    }
}
