package org.electorallog.store;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * The data keys of the committed form in PostgreSQL as the projector reads them ({@code
 * personal_keys.data_keys}, store V18 and V24; docs/personal-data.md "The keys"): a key's secret is
 * unwrapped with the configured key-encryption keys; keys that exist are remembered in memory once
 * read (a key never changes while it exists); an erased or unknown key is asked again each time,
 * since erasure happens in another process and a key is made after a producer asks for it. Only the
 * owner's login (the projector's, the erasure's) may read the table (V24).
 */
public final class SqlDataKeys implements DataKeys {
    private static final String ERASED_AMONG = "SELECT key_id, erased IS NOT NULL FROM personal_keys.data_keys "
            + "WHERE key_id = ANY(?::text[]) ORDER BY key_id FOR SHARE";
    private static final String ERASED_STATEMENTS_AMONG =
            "SELECT leaf_hash FROM personal_keys.erased_statements WHERE leaf_hash = ANY(?::bytea[])";
    private static final String FIND =
            "SELECT key, wrapped, kek_id, erased FROM personal_keys.data_keys WHERE key_id = ?";

    private final DataSource db;
    private final KeyEncryptionKeys keks;
    private final Map<String, DataKey> known = new ConcurrentHashMap<>();
    /**
     * Keys found erased: an erasure is for good, so a replay of an erased day asks the database
     * once, not once an event.
     */
    private final Set<String> erased = ConcurrentHashMap.newKeySet();

    public SqlDataKeys(DataSource db, KeyEncryptionKeys keks) {
        this.db = db;
        this.keks = keks;
    }

    @Override
    public Lookup find(String keyId) {
        if (erased.contains(keyId)) {
            return new Lookup(State.ERASED, null);
        }
        DataKey k = known.get(keyId);
        if (k != null) {
            return new Lookup(State.PRESENT, k);
        }
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setString(1, keyId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Lookup(State.UNKNOWN, null);
                }
                if (rs.getTimestamp(4) != null) {
                    erased.add(keyId);
                    return new Lookup(State.ERASED, null);
                }
                DataKey key = key(keyId, rs.getBytes(1), rs.getBytes(2), rs.getString(3));
                known.put(keyId, key);
                return new Lookup(State.PRESENT, key);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the key store for " + keyId + ": " + e.getMessage(), e);
        }
    }

    /** A row's key: its V18 AES key in the clear, or its wrapped secret (the private half, then any V18 key). */
    private DataKey key(String keyId, byte[] clear, byte[] wrapped, String kekId) {
        if (wrapped == null) {
            return new DataKey(keyId, null, clear);
        }
        byte[] secret = keks.unwrap(kekId, keyId, wrapped);
        return switch (secret.length) {
            case 32 -> new DataKey(keyId, secret, null);
            case 64 -> new DataKey(keyId, Arrays.copyOf(secret, 32), Arrays.copyOfRange(secret, 32, 64));
            default ->
                throw new IllegalStateException(
                        "the data key " + keyId + " unwraps to " + secret.length + " bytes, not 32 or 64");
        };
    }

    /**
     * Which of {@code keyIds} are erased, in the caller's transaction, holding a share lock on each
     * key's row until it ends: the projector asks this in the batch transaction that stores values
     * opened with those keys, so that an erasure either committed before (the values are not
     * stored) or waits for the batch to commit and then deletes them too. Never both missed.
     */
    public static Set<String> erasedAmong(Connection c, Collection<String> keyIds) throws SQLException {
        Set<String> out = new HashSet<>();
        if (keyIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(ERASED_AMONG)) {
            ps.setArray(1, c.createArrayOf("text", keyIds.toArray(new String[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(2)) {
                        out.add(rs.getString(1));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Which of the statements {@code leafHashes} had their values erased by user ({@code
     * personal_keys.erased_statements}, V24), in the caller's transaction: the projector stores
     * those without values, so that a replay does not bring back what {@code erase --user} erased.
     */
    public static Set<ByteBuffer> erasedStatementsAmong(Connection c, Collection<byte[]> leafHashes)
            throws SQLException {
        Set<ByteBuffer> out = new HashSet<>();
        if (leafHashes.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(ERASED_STATEMENTS_AMONG)) {
            ps.setArray(1, c.createArrayOf("bytea", leafHashes.toArray(new byte[0][])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(ByteBuffer.wrap(rs.getBytes(1)));
                }
            }
        }
        return out;
    }
}
