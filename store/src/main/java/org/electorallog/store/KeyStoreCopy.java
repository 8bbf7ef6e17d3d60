package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The key store (schema {@code personal_keys}, V18 and V24) carried into a database that {@code
 * electoral-log rebuild} makes from the topic: the projection can be made again from the topic, the
 * keys and the erasures cannot. Keys travel wrapped, as they are stored; the same key-encryption
 * keys open them. After the replay, {@link #missedErasures} says what was erased in the live
 * database meanwhile, which the rebuild refuses to leave out.
 */
public final class KeyStoreCopy {
    private static final String KEYS = "SELECT key_id, board, day, key, created, erased, public_key, wrapped, kek_id "
            + "FROM personal_keys.data_keys";
    private static final String WRITE_KEY = "INSERT INTO personal_keys.data_keys (key_id, board, day, key, created, "
            + "erased, public_key, wrapped, kek_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_id) DO UPDATE "
            + "SET key = NULL, wrapped = NULL, kek_id = NULL, erased = EXCLUDED.erased "
            + "WHERE EXCLUDED.erased IS NOT NULL AND data_keys.erased IS NULL";
    private static final String STATEMENTS = "SELECT leaf_hash, board, erased FROM personal_keys.erased_statements";
    private static final String WRITE_STATEMENT = "INSERT INTO personal_keys.erased_statements (leaf_hash, board, "
            + "erased) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String GRANTS = "SELECT login, board, granted FROM personal_keys.producer_boards";
    private static final String WRITE_GRANT =
            "INSERT INTO personal_keys.producer_boards (login, board, granted) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";

    private KeyStoreCopy() {}

    /**
     * Copies every key (and every erasure of a key or of a user's statements, and every producer's
     * boards) of {@code from}'s key store into {@code to}'s. A key erased in either stays erased.
     * Returns how many keys {@code from} holds.
     */
    public static int copy(DataSource from, DataSource to) throws SQLException {
        try (Connection a = from.getConnection();
                Connection b = to.getConnection()) {
            int keys = copy(a, b, KEYS, WRITE_KEY, 9);
            copy(a, b, STATEMENTS, WRITE_STATEMENT, 3);
            copy(a, b, GRANTS, WRITE_GRANT, 3);
            return keys;
        }
    }

    private static int copy(Connection a, Connection b, String read, String write, int columns) throws SQLException {
        int n = 0;
        try (PreparedStatement r = a.prepareStatement(read);
                ResultSet rs = r.executeQuery();
                PreparedStatement w = b.prepareStatement(write)) {
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    w.setObject(i, rs.getObject(i));
                }
                w.addBatch();
                n++;
            }
            if (n > 0 && w.executeBatch().length != n) {
                throw new SQLException("copying the key store: " + n + " rows read, not as many written");
            }
        }
        return n;
    }

    /**
     * What {@code live} has erased that {@code rebuilt} has not: its erased keys and its erased
     * statements (by leaf hash, hex) missing from the rebuilt database's key store. Empty when the
     * rebuilt database holds every erasure.
     */
    public static List<String> missedErasures(DataSource live, DataSource rebuilt) throws SQLException {
        List<String> missed = new ArrayList<>();
        Set<String> erasedThere =
                column(rebuilt, "SELECT key_id FROM personal_keys.data_keys WHERE erased IS NOT NULL");
        for (String k : column(live, "SELECT key_id FROM personal_keys.data_keys WHERE erased IS NOT NULL")) {
            if (!erasedThere.contains(k)) {
                missed.add("data key " + k);
            }
        }
        Set<String> statementsThere =
                column(rebuilt, "SELECT encode(leaf_hash, 'hex') FROM personal_keys.erased_statements");
        for (String h : column(live, "SELECT encode(leaf_hash, 'hex') FROM personal_keys.erased_statements")) {
            if (!statementsThere.contains(h)) {
                missed.add("the values of statement " + h);
            }
        }
        return missed;
    }

    private static Set<String> column(DataSource db, String sql) throws SQLException {
        Set<String> out = new HashSet<>();
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
