package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** Table {@code senders} (V1): each sender public key once, referenced by records through sender_id. */
public final class Senders {
    /** Every sender key (a few rows: one per sending service). */
    public static final String ALL_SQL = "SELECT sender_id, public_key FROM senders";

    private Senders() {}

    /** The sender_id of each key, adding new keys (in the caller's transaction). */
    public static Map<ByteBuffer, Integer> intern(Connection c, Collection<ByteBuffer> publicKeys) throws SQLException {
        // sorted keys: two projectors adding the same new keys lock them in the same order
        byte[][] array =
                new TreeSet<>(publicKeys).stream().map(ByteBuffer::array).toArray(byte[][]::new);
        Map<ByteBuffer, Integer> out = new HashMap<>();
        try (PreparedStatement add = c.prepareStatement(
                        "INSERT INTO senders (public_key) SELECT k FROM unnest(?::bytea[]) "
                                + "AS u(k) WHERE NOT EXISTS (SELECT 1 FROM senders s WHERE s.public_key = u.k) ORDER BY k ON CONFLICT DO NOTHING");
                PreparedStatement find = c.prepareStatement(
                        "SELECT sender_id, public_key FROM senders WHERE public_key = ANY(?::bytea[])")) {
            add.setArray(1, c.createArrayOf("bytea", array));
            add.executeUpdate();
            find.setArray(1, c.createArrayOf("bytea", array));
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    out.put(ByteBuffer.wrap(rs.getBytes(2)), rs.getInt(1));
                }
            }
        }
        if (out.size() != array.length) {
            throw new IllegalStateException("senders: " + array.length + " keys asked, " + out.size() + " found");
        }
        return out;
    }

    /** The sender_id of a key (senders_public_key_key), if any record has it. */
    public static Optional<Integer> idOf(Connection c, byte[] publicKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT sender_id FROM senders WHERE public_key = ?")) {
            ps.setBytes(1, publicKey);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getInt(1)) : Optional.empty();
            }
        }
    }

    /** Every sender key by its sender_id. */
    public static Map<Integer, byte[]> all(Connection c) throws SQLException {
        Map<Integer, byte[]> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(ALL_SQL);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getInt(1), rs.getBytes(2));
            }
        }
        return out;
    }
}
