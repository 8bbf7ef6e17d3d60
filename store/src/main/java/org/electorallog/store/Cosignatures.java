package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/** Table {@code checkpoint_cosignatures} (V13): witness cosignatures of signed checkpoints. */
public final class Cosignatures {
    /** The cosignature lines of one checkpoint (the primary key's prefix). */
    public static final String LINES_SQL =
            "SELECT line FROM checkpoint_cosignatures WHERE board_id = ? AND size = ? ORDER BY witness";
    /** The largest size a witness cosigned on a board (index checkpoint_cosignatures_witness). */
    /** The largest size any witness cosigned on a board (the primary key's range of the board), 0 for none. */
    public static final String LARGEST_SIZE_SQL =
            "SELECT coalesce(max(size), 0) FROM checkpoint_cosignatures WHERE board_id = ?";

    public static final String LAST_SIZE_SQL =
            "SELECT max(size) FROM checkpoint_cosignatures WHERE board_id = ? AND witness = ?";

    /**
     * The largest checkpoint after {@code afterSize} that some witnesses cosigned, that is not marked
     * witnessed (its quorum, a policy the projector decides in Java, is not met), and that {@code
     * witness} has not cosigned (the primary key's range from afterSize on, a checkpoints primary-key
     * probe a size).
     */
    public static final String SHORT_OF_QUORUM_SQL = "SELECT k.size FROM checkpoint_cosignatures k "
            + "WHERE k.board_id = ? AND k.size > ? GROUP BY k.size HAVING bool_and(k.witness <> ?) "
            + "AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.board_id = ? AND c.size = k.size "
            + "AND c.witnessed IS NOT NULL) ORDER BY k.size DESC LIMIT 1";

    /** The witness keys that cosigned one checkpoint (the primary key's prefix). */
    public static final String WITNESSES_AT_SQL =
            "SELECT witness FROM checkpoint_cosignatures WHERE board_id = ? AND size = ?";

    /** Every cosignature of a board's checkpoints, by size and witness (the primary key, whole board). */
    public static final String OF_BOARD_SQL =
            "SELECT size, witness, line FROM checkpoint_cosignatures WHERE board_id = ? ORDER BY size, witness";

    /** One stored cosignature: the witness key it is stored under and its signature line. */
    public record Stored(String witness, String line) {}

    private Cosignatures() {}

    /** Every stored cosignature of the board, by checkpoint size (for the audit). */
    public static SortedMap<Long, List<Stored>> ofBoard(Connection c, short boardId) throws SQLException {
        SortedMap<Long, List<Stored>> out = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(OF_BOARD_SQL)) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                            .add(new Stored(rs.getString(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /**
     * The checkpoint {@code witness} should cosign to help others reach the quorum, if any: the
     * largest one after its own last size that other witnesses cosigned short of the quorum. Without
     * this, witnesses asked a moment apart while checkpoints keep coming would each cosign another
     * size and no size would reach the quorum while voting goes on.
     */
    public static Optional<Long> shortOfQuorum(Connection c, short boardId, String witness, long afterSize)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SHORT_OF_QUORUM_SQL)) {
            ps.setShort(1, boardId);
            ps.setLong(2, afterSize);
            ps.setString(3, witness);
            ps.setShort(4, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }
    }

    /** The witness keys ({@code <name>+<hex key ID>}) whose cosignature of the checkpoint is stored. */
    public static Set<String> witnessesAt(Connection c, short boardId, long size) throws SQLException {
        return new TreeSet<>(texts(c, WITNESSES_AT_SQL, boardId, size));
    }

    /** Stores a verified cosignature; a second one by the same witness on the same checkpoint does nothing. */
    public static void add(Connection c, short boardId, long size, String witness, String line, long cosignedSeconds)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO checkpoint_cosignatures (board_id, size, witness, line, cosigned) VALUES (?, ?, ?, ?, ?) "
                        + "ON CONFLICT (board_id, size, witness) DO NOTHING")) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            ps.setString(3, witness);
            ps.setString(4, line);
            ps.setTimestamp(5, Timestamp.from(Instant.ofEpochSecond(cosignedSeconds)));
            ps.executeUpdate();
        }
    }

    /** The largest size {@code witness} cosigned on the board, 0 when none. */
    /** The largest size any witness cosigned on board {@code boardId} ({@link #LARGEST_SIZE_SQL}). */
    public static long largestSize(Connection c, short boardId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LARGEST_SIZE_SQL)) {
            ps.setShort(1, boardId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    public static long lastSize(Connection c, short boardId, String witness) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LAST_SIZE_SQL)) {
            ps.setShort(1, boardId);
            ps.setString(2, witness);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** The cosignature lines of the checkpoint at {@code size}, by witness. */
    public static List<String> lines(Connection c, short boardId, long size) throws SQLException {
        return texts(c, LINES_SQL, boardId, size);
    }

    /** The one text column of {@code sql}'s rows for one checkpoint (board ID, size). */
    private static List<String> texts(Connection c, String sql, short boardId, long size) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * Marks the checkpoint witnessed when at least {@code quorum} witnesses cosigned it and it is not
     * marked yet; true when this call marked it.
     */
    public static boolean markWitnessed(Connection c, short boardId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE checkpoints SET witnessed = now() WHERE board_id = ? AND size = ? AND witnessed IS NULL")) {
            ps.setShort(1, boardId);
            ps.setLong(2, size);
            return ps.executeUpdate() == 1;
        }
    }
}
