package org.electorallog.store;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.electorallog.core.DataKeys;
import org.electorallog.core.PersonalOpenings;

/**
 * The data keys of the committed form in PostgreSQL ({@code personal_keys.data_keys}, store V18;
 * docs/personal-data.md). Keys that exist are remembered in memory once read (a key never changes
 * while it exists); an erased or unknown key is asked again each time, since erasure happens in
 * another process and a key may be created after a first miss. A producer that read a day's key
 * before it was erased keeps using it until it restarts or calls {@link #forget}: what it publishes
 * then is projected with its commitments only. Erase a day after its board is sealed, as {@code
 * electoral-log erase} will insist.
 */
public final class SqlDataKeys implements DataKeys {
    private static final String CREATE = "INSERT INTO personal_keys.data_keys (key_id, board, day, key) "
            + "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String ERASED_AMONG = "SELECT key_id, erased IS NOT NULL FROM personal_keys.data_keys "
            + "WHERE key_id = ANY(?::text[]) ORDER BY key_id FOR SHARE";
    private static final String COPY = "INSERT INTO personal_keys.data_keys (key_id, board, day, key, created, erased) "
            + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key_id) DO UPDATE SET key = NULL, erased = EXCLUDED.erased "
            + "WHERE EXCLUDED.erased IS NOT NULL AND data_keys.erased IS NULL";
    private static final String FIND = "SELECT key, erased FROM personal_keys.data_keys WHERE key_id = ?";

    private final DataSource db;
    private final Map<String, DataKey> known = new ConcurrentHashMap<>();
    /**
     * Keys found erased: an erasure is for good, so a replay of an erased day asks the database
     * once, not once an event.
     */
    private final Set<String> erased = ConcurrentHashMap.newKeySet();

    public SqlDataKeys(DataSource db) {
        this.db = db;
    }

    @Override
    public DataKey forDay(String board, LocalDate day) {
        String id = DataKeys.id(board, day);
        DataKey k = known.get(id);
        if (k != null) {
            return k;
        }
        try (Connection c = db.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(CREATE)) {
                ps.setString(1, id);
                ps.setString(2, board);
                ps.setDate(3, Date.valueOf(day));
                ps.setBytes(4, PersonalOpenings.newKey());
                ps.executeUpdate(); // a concurrent creator wins: the key read below is the one kept
            }
            Lookup found = find(c, id);
            if (found.state() != State.PRESENT) {
                throw new IllegalStateException("the data key " + id + " was erased: no statement of " + board + " on "
                        + day + " can be published in the committed form any more");
            }
            return found.key();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the key store for " + id + ": " + e.getMessage(), e);
        }
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
        try (Connection c = db.getConnection()) {
            return find(c, keyId);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the key store for " + keyId + ": " + e.getMessage(), e);
        }
    }

    /**
     * Which of {@code keyIds} are erased, in the caller's transaction, holding a share lock on each
     * key's row until it ends: the projector asks this in the batch transaction that stores values
     * opened with those keys, so that an erasure either committed before (the values are not
     * stored) or waits for the batch to commit and then deletes them too. Never both missed.
     */
    public static Set<String> erasedAmong(Connection c, Collection<String> keyIds) throws SQLException {
        Set<String> erased = new HashSet<>();
        if (keyIds.isEmpty()) {
            return erased;
        }
        try (PreparedStatement ps = c.prepareStatement(ERASED_AMONG)) {
            ps.setArray(1, c.createArrayOf("text", keyIds.toArray(new String[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(2)) {
                        erased.add(rs.getString(1));
                    }
                }
            }
        }
        return erased;
    }

    /**
     * Copies every key (and every erasure) of {@code from}'s key store into {@code to}'s, as {@code
     * electoral-log rebuild} does before it replays the topic into a new database: the projection
     * can be made again from the topic, the keys cannot, and a replay without them would refuse
     * every statement in the committed form ({@code UNKNOWN_DATA_KEY}). A key erased in either
     * stays erased. Returns how many keys {@code from} holds.
     */
    public static int copy(DataSource from, DataSource to) throws SQLException {
        int n = 0;
        try (Connection a = from.getConnection();
                PreparedStatement read = a.prepareStatement(
                        "SELECT key_id, board, day, key, created, erased FROM personal_keys.data_keys");
                ResultSet rs = read.executeQuery();
                Connection b = to.getConnection();
                PreparedStatement write = b.prepareStatement(COPY)) {
            while (rs.next()) {
                for (int i = 1; i <= 6; i++) {
                    write.setObject(i, rs.getObject(i));
                }
                write.addBatch();
                n++;
            }
            int[] written = write.executeBatch();
            if (written.length != n) {
                throw new SQLException("copying data keys: " + n + " read, " + written.length + " written");
            }
        }
        return n;
    }

    /** Forgets the keys read so far (after an erasure in this process). */
    public void forget() {
        known.clear();
        erased.clear();
    }

    private Lookup find(Connection c, String keyId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setString(1, keyId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Lookup(State.UNKNOWN, null);
                }
                byte[] key = rs.getBytes(1);
                if (key == null) {
                    erased.add(keyId);
                    return new Lookup(State.ERASED, null);
                }
                DataKey k = new DataKey(keyId, key);
                known.put(keyId, k);
                return new Lookup(State.PRESENT, k);
            }
        }
    }
}
