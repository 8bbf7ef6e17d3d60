package org.electorallog.store;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.SealingKeys;
import org.postgresql.PGConnection;

/**
 * The key store as a producer reaches it (store V24, docs/personal-data.md "The keys"): through
 * {@code personal_keys.sealing_key} only, as its own login, for the boards that login may write.
 * When the day's key does not exist yet the function asks the log for it, and this waits for the
 * projector's {@link KeyMaker} to say it made it (LISTEN {@value KeyMaker#MADE}), up to a timeout.
 * Public keys are remembered once read; an erased key is refused. What a producer learns here
 * opens nothing.
 */
public final class SqlSealingKeys implements SealingKeys {
    /** How long a producer waits for the log to make a key unless told otherwise. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private static final String ASK = "SELECT key_id, public_key, erased FROM personal_keys.sealing_key(?, ?)";

    private final DataSource db;
    private final Duration wait;
    private final Map<String, SealingKey> known = new ConcurrentHashMap<>();

    public SqlSealingKeys(DataSource db) {
        this(db, DEFAULT_WAIT);
    }

    public SqlSealingKeys(DataSource db, Duration wait) {
        this.db = db;
        this.wait = wait;
    }

    @Override
    public SealingKey forDay(String board, LocalDate day) {
        String id = DataKeys.id(board, day);
        SealingKey k = known.get(id);
        if (k != null) {
            return k;
        }
        try (Connection c = db.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("LISTEN " + KeyMaker.MADE); // before asking, so that the answer cannot slip by
                try {
                    k = await(c, board, day, id);
                } finally {
                    st.execute("UNLISTEN " + KeyMaker.MADE);
                    c.setAutoCommit(autoCommit);
                }
            }
        } catch (SQLException e) {
            if ("42501".equals(e.getSQLState())) {
                throw new IllegalStateException(
                        e.getMessage()
                                + (e.getMessage().contains("keys allow")
                                        ? ""
                                        : " (electoral-log keys allow grants a board)"),
                        e);
            }
            throw new IllegalStateException("cannot reach the key store for " + id + ": " + e.getMessage(), e);
        }
        known.put(id, k);
        return k;
    }

    private SealingKey await(Connection c, String board, LocalDate day, String id) throws SQLException {
        long deadline = System.nanoTime() + wait.toNanos();
        PGConnection pg = c.unwrap(PGConnection.class);
        while (true) {
            try (PreparedStatement ps = c.prepareStatement(ASK)) {
                ps.setString(1, board);
                ps.setDate(2, Date.valueOf(day));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("personal_keys.sealing_key returned no row");
                    }
                    if (rs.getBoolean(3)) {
                        throw new IllegalStateException("the data key " + id + " was erased: no statement of " + board
                                + " on " + day + " can be published in the committed form any more");
                    }
                    byte[] pk = rs.getBytes(2);
                    if (pk != null) {
                        return new SealingKey(rs.getString(1), pk);
                    }
                }
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new IllegalStateException(
                        "the log did not make the data key " + id + " within " + wait.toSeconds()
                                + " s: is a projector running with its key-encryption key (ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES)?");
            }
            pg.getNotifications((int) Math.min(left, Integer.MAX_VALUE)); // any key made: ask again
        }
    }
}
