package org.electorallog.store;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.electorallog.core.Hashes;
import org.postgresql.util.PSQLException;

/**
 * Table {@code deliveries} (V15): each stored delivery ID's key once per board ({@link #key}: the
 * board ID and 14 bytes of the ID's SHA-256, one uuid), with the ID of the record that holds it.
 * Its primary key is the board-wide dedup that the range-partitioned records table cannot enforce
 * itself (a unique index there holds only within a partition), so every record is written with its
 * row here, in the same transaction ({@link RecordInserter}).
 */
public final class Deliveries {
    /** The primary key a repeated delivery key runs into. */
    static final String PRIMARY_KEY = "deliveries_pkey";

    /**
     * The stored delivery IDs among a batch's keys: one probe of deliveries_pkey per key, then the
     * record's full ID by its primary key (only for keys that are stored, which are rare). LATERAL with
     * LIMIT 1 keeps it a probe per key whatever the statistics say: written as one {@code = ANY(keys)}
     * condition, a board created after the last ANALYZE was once estimated at one row and walked
     * whole (seen in perf at 5M records: 700 records/s on a new board).
     */
    public static final String LOOKUP_SQL =
            "SELECT s.delivery_id, s.id FROM unnest(?::uuid[]) AS k(key) CROSS JOIN LATERAL "
                    + "(SELECT r.delivery_id, r.id FROM deliveries d JOIN records r ON r.board_id = ? AND r.id = d.id "
                    + "WHERE d.key = k.key LIMIT 1) s";

    /**
     * A board's delivery rows (one range of the primary key: the keys that begin with its ID) as a
     * count and a sum of {@link #fingerprint fingerprints}, for the audit's check that they are
     * exactly the records' (a pass over the board's keys, no probe per record).
     */
    public static final String FINGERPRINT_SQL = "SELECT count(*), coalesce(sum(('x' || encode(substring("
            + "sha256(uuid_send(key) || int8send(id)) FROM 1 FOR 8), 'hex'))::bit(64)::bigint::numeric), 0) "
            + "FROM deliveries WHERE key BETWEEN ?::uuid AND ?::uuid";

    private Deliveries() {}

    /** The bytes of a delivery ID's SHA-256 that its key holds. */
    static final int DIGEST_BYTES = 14;

    /**
     * The key of a delivery ID on a board (SQL {@code board_delivery_key}, V15): the board ID as two
     * big-endian bytes, then the first 14 bytes of SHA-256 over the ID's UTF-8 bytes.
     */
    public static byte[] key(short boardId, String deliveryId) {
        return key(boardId, Arrays.copyOf(Hashes.sha256(deliveryId.getBytes(StandardCharsets.UTF_8)), DIGEST_BYTES));
    }

    /** The key of a delivery ID on a board from the ID's {@link RecordContent#deliveryDigest digest}. */
    public static byte[] key(short boardId, RecordContent content) {
        return key(boardId, content.deliveryDigest());
    }

    private static byte[] key(short boardId, byte[] digest) {
        byte[] k = new byte[2 + DIGEST_BYTES];
        k[0] = (byte) (boardId >> 8);
        k[1] = (byte) boardId;
        System.arraycopy(digest, 0, k, 2, DIGEST_BYTES);
        return k;
    }

    private static UUID uuid(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        return new UUID(b.getLong(), b.getLong());
    }

    /** The first (0x00 x 14) or last (0xff x 14) key of a board. */
    static UUID boardEdge(short boardId, boolean last) {
        byte[] k = new byte[16];
        Arrays.fill(k, last ? (byte) 0xff : 0);
        k[0] = (byte) (boardId >> 8);
        k[1] = (byte) boardId;
        return uuid(k);
    }

    /**
     * One delivery row's fingerprint: the first 8 bytes of SHA-256(key || id as 8 big-endian bytes),
     * read as a signed long, as {@link #FINGERPRINT_SQL} computes it.
     */
    public static long fingerprint(byte[] key, long id) {
        byte[] in = Arrays.copyOf(key, key.length + 8);
        ByteBuffer.wrap(in, key.length, 8).putLong(id);
        return ByteBuffer.wrap(Hashes.sha256(in)).getLong();
    }

    /** A board's delivery rows: how many, and the exact sum of their fingerprints. */
    public record Fingerprint(long rows, BigInteger sum) {}

    public static Fingerprint fingerprint(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FINGERPRINT_SQL)) {
            ps.setObject(1, boardEdge(boardId, false));
            ps.setObject(2, boardEdge(boardId, true));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the fingerprint query returned no row");
                }
                return new Fingerprint(rs.getLong(1), rs.getBigDecimal(2).toBigIntegerExact());
            }
        }
    }

    /**
     * Whether {@code failure} (or a cause) is PostgreSQL refusing a record because its delivery key is
     * already stored on its board: SQLSTATE 23505 (unique_violation) on {@link #PRIMARY_KEY}. The
     * projector writes a batch without {@link #storedIds looking its IDs up} first and takes this as
     * the sign to write the batch again with the lookup (decision 83).
     */
    public static boolean isStoredKey(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof PSQLException e
                    && "23505".equals(e.getSQLState())
                    && e.getServerErrorMessage() != null
                    && PRIMARY_KEY.equals(e.getServerErrorMessage().getConstraint())) {
                return true;
            }
        }
        return false;
    }

    /** The stored delivery IDs of a board whose {@link #key keys} (of that board) are among {@code keys}. */
    public static List<String> storedIds(Connection c, short boardId, Collection<ByteBuffer> keys) throws SQLException {
        return new ArrayList<>(storedRecords(c, boardId, keys).keySet());
    }

    /**
     * The stored delivery IDs of a board whose {@link #key keys} are among {@code keys}, each with the
     * ID of the record that holds it (what a repeat's content is compared with, issue 61).
     */
    public static Map<String, Long> storedRecords(Connection c, short boardId, Collection<ByteBuffer> keys)
            throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(LOOKUP_SQL)) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "uuid", keys.stream().map(k -> uuid(k.array())).toArray(UUID[]::new)));
            ps.setShort(2, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    /** Where a delivery ID was projected: its record and that record's leaf hash. */
    @SuppressWarnings("ArrayRecordComponent") // a hash compared with Arrays.equals by its reader
    public record Projected(long record, byte[] leafHash) {}

    /**
     * The record that holds {@code deliveryId} on board {@code board}, with its leaf hash (from its
     * level-0 tile); empty while the board or the delivery ID is not projected. What a command that
     * publishes a statement of fixed ID reads to report the outcome rather than Kafka's ack (issue
     * 61 item 7): the same leaf hash is its statement, another is a statement that took the ID first.
     */
    public static Optional<Projected> projected(Connection c, String board, String deliveryId) throws SQLException {
        Optional<BoardState> state = Boards.state(c, board);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        short boardId = state.get().board().id();
        Long record = storedRecords(c, boardId, List.of(ByteBuffer.wrap(key(boardId, deliveryId))))
                .get(deliveryId);
        if (record == null) {
            return Optional.empty();
        }
        byte[] leaf = Tiles.leaves(c, boardId, List.of(record)).get(record);
        if (leaf == null) {
            throw new SQLException("record " + record + " of board " + board + " has no leaf in its tile");
        }
        return Optional.of(new Projected(record, leaf));
    }

    /** Whether the primary key of deliveries exists and is valid: without it delivery IDs are not kept unique. */
    public static boolean uniquelyIndexed(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT i.indisunique AND i.indisvalid FROM pg_index i "
                        + "WHERE i.indexrelid = to_regclass('" + PRIMARY_KEY + "')");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** Writes the rows' delivery keys by binary COPY (key, id), in the caller's transaction. */
    static void insert(Connection c, List<RecordRow> rows) throws SQLException {
        int rowBytes = 2 + (4 + 2 + DIGEST_BYTES) + (4 + 8);
        ByteBuffer b = ByteBuffer.allocate(BinaryCopy.HEADER_BYTES + rows.size() * rowBytes + BinaryCopy.TRAILER_BYTES);
        BinaryCopy.header(b);
        for (RecordRow r : rows) {
            b.putShort((short) 2);
            b.putInt(2 + DIGEST_BYTES).put(key(r.boardId(), r.content().deliveryDigest()));
            b.putInt(8).putLong(r.id());
        }
        BinaryCopy.trailer(b);
        BinaryCopy.copyIn(
                c, "COPY deliveries (key, id) FROM STDIN (FORMAT binary)", b.array(), rows.size() + " delivery keys");
    }
}
