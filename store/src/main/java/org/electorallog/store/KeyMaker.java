package org.electorallog.store;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.SealingKeys;
import org.electorallog.statement.SealingKeys.SealingKey;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log's maker of data keys (store V24, docs/personal-data.md "The keys", decision 128): it makes
 * a board's key of a day as an X25519 key pair, keeps the private half wrapped under the
 * key-encryption key and hands out the public half; no producer ever chooses or holds a key that
 * opens anything. It makes the keys producers asked for ({@code personal_keys.key_requests}, on
 * NOTIFY {@value #REQUESTED}), tomorrow's key of every board that has one today, and converts the
 * keys producers made before V24 into the wrapped form. Runs in the projector, which holds the
 * key-encryption key; several makers may run, one key is kept per board and day. Its loop holds one
 * connection of the pool it is given.
 */
public final class KeyMaker implements AutoCloseable {
    /** The channel producers notify when they ask for a key. */
    public static final String REQUESTED = "electoral_log_key_requested";

    /** The channel the maker notifies when it made keys (the payload: the key IDs). */
    public static final String MADE = "electoral_log_key_made";

    private static final Logger LOG = LoggerFactory.getLogger(KeyMaker.class);
    private static final String INSERT =
            "INSERT INTO personal_keys.data_keys (key_id, board, day, public_key, wrapped, "
                    + "kek_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String READ =
            "SELECT key_id, public_key, erased IS NOT NULL FROM personal_keys.data_keys WHERE key_id = ?";
    /** How often the loop looks even when nobody notified (a notification sent while it was not listening). */
    private static final Duration LOOK_EVERY = Duration.ofSeconds(5);

    private final DataSource db;
    private final KeyEncryptionKeys keks;
    private volatile boolean closed;
    private Thread thread;

    public KeyMaker(DataSource db, KeyEncryptionKeys keks) {
        if (keks.isEmpty()) {
            throw new IllegalArgumentException("the key maker needs a key-encryption key");
        }
        this.db = db;
        this.keks = keks;
    }

    /**
     * The key of {@code board} on {@code day}, made now if it does not exist; an {@link
     * IllegalStateException} when it was erased.
     */
    public SealingKey make(String board, LocalDate day) throws SQLException {
        String id = DataKeys.id(board, day);
        try (Connection c = db.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                insert(c, board, day);
                notifyMade(c, List.of(id));
                c.commit();
                try (PreparedStatement ps = c.prepareStatement(READ)) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new SQLException("the data key " + id + " is not there after it was made");
                        }
                        if (rs.getBoolean(3)) {
                            throw new IllegalStateException("the data key " + id + " was erased");
                        }
                        byte[] pk = rs.getBytes(2);
                        if (pk == null) {
                            throw new IllegalStateException("the data key " + id + " was made before V24 and is not "
                                    + "converted yet (KeyMaker.convertLegacy)");
                        }
                        return new SealingKey(rs.getString(1), pk);
                    }
                }
            } finally {
                c.rollback();
                c.setAutoCommit(autoCommit);
            }
        }
    }

    /**
     * The keys this maker makes, as a producer in the log's own process sees them (the demo, perf,
     * tests): asked for directly, not through {@code personal_keys.sealing_key}.
     */
    public SealingKeys sealingKeys() {
        return (board, day) -> {
            try {
                return make(board, day);
            } catch (SQLException e) {
                throw new IllegalStateException(
                        "cannot make the data key " + DataKeys.id(board, day) + ": " + e.getMessage(), e);
            }
        };
    }

    /** Makes every key producers asked for, on {@code c}; returns the IDs made. */
    private List<String> makeRequested(Connection c) throws SQLException {
        List<String> made = new ArrayList<>();
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM personal_keys.key_requests RETURNING board, day");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String board = rs.getString(1);
                LocalDate day = rs.getDate(2).toLocalDate();
                if (insert(c, board, day)) {
                    made.add(DataKeys.id(board, day));
                }
            }
        }
        notifyMade(c, made);
        c.commit();
        c.setAutoCommit(autoCommit);
        return made;
    }

    /**
     * Makes tomorrow's (UTC) key of every board that has one for today, so that a running election
     * does not wait at midnight; returns the IDs made.
     */
    private List<String> makeAhead(Connection c, LocalDate today) throws SQLException {
        List<String> boards = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT t.board FROM personal_keys.data_keys t WHERE t.day = ? "
                + "AND t.erased IS NULL AND NOT EXISTS (SELECT 1 FROM personal_keys.data_keys n "
                + "WHERE n.board = t.board AND n.day = ?)")) {
            ps.setDate(1, Date.valueOf(today));
            ps.setDate(2, Date.valueOf(today.plusDays(1)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boards.add(rs.getString(1));
                }
            }
        }
        List<String> made = new ArrayList<>();
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        for (String board : boards) {
            if (insert(c, board, today.plusDays(1))) {
                made.add(DataKeys.id(board, today.plusDays(1)));
            }
        }
        notifyMade(c, made);
        c.commit();
        c.setAutoCommit(autoCommit);
        return made;
    }

    /**
     * Wraps the keys producers made before V24 (their AES key in the clear) under the
     * key-encryption key, with a new key pair beside them so that producers can seal to that day
     * too; returns how many.
     */
    public int convertLegacy() throws SQLException {
        try (Connection c = db.getConnection()) {
            return convertLegacy(c);
        }
    }

    private int convertLegacy(Connection c) throws SQLException {
        int n = 0;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement read = c.prepareStatement("SELECT key_id, key FROM personal_keys.data_keys "
                        + "WHERE key IS NOT NULL AND erased IS NULL FOR UPDATE");
                PreparedStatement write = c.prepareStatement("UPDATE personal_keys.data_keys SET key = NULL, "
                        + "public_key = ?, wrapped = ?, kek_id = ? WHERE key_id = ?");
                ResultSet rs = read.executeQuery()) {
            List<String> ids = new ArrayList<>();
            while (rs.next()) {
                String id = rs.getString(1);
                ContentKeys.KeyPair pair = ContentKeys.newKeyPair();
                byte[] secret = new byte[64];
                System.arraycopy(pair.privateKey(), 0, secret, 0, 32);
                System.arraycopy(rs.getBytes(2), 0, secret, 32, 32);
                write.setBytes(1, pair.publicKey());
                write.setBytes(2, keks.wrap(id, secret));
                write.setString(3, keks.currentId());
                write.setString(4, id);
                write.addBatch();
                ids.add(id);
                n++;
            }
            if (n > 0 && write.executeBatch().length != n) {
                throw new SQLException("converting data keys: " + n + " read, not as many written");
            }
            notifyMade(c, ids);
        }
        c.commit();
        c.setAutoCommit(autoCommit);
        return n;
    }

    /**
     * Wraps every key not wrapped under the first key-encryption key again under it (a rotation:
     * docs/operations.md "Rotating the key-encryption key"), in one transaction; returns how many.
     */
    public int rewrap() throws SQLException {
        int n = 0;
        try (Connection c = db.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement read = c.prepareStatement("SELECT key_id, wrapped, kek_id FROM "
                            + "personal_keys.data_keys WHERE wrapped IS NOT NULL AND kek_id <> ? FOR UPDATE");
                    PreparedStatement write = c.prepareStatement(
                            "UPDATE personal_keys.data_keys SET wrapped = ?, kek_id = ? WHERE key_id = ?")) {
                read.setString(1, keks.currentId());
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        String id = rs.getString(1);
                        byte[] secret = keks.unwrap(rs.getString(3), id, rs.getBytes(2));
                        write.setBytes(1, keks.wrap(id, secret));
                        write.setString(2, keks.currentId());
                        write.setString(3, id);
                        write.addBatch();
                        n++;
                    }
                }
                if (n > 0 && write.executeBatch().length != n) {
                    throw new SQLException("rewrapping data keys: " + n + " read, not as many written");
                }
            }
            c.commit();
            c.setAutoCommit(autoCommit);
        }
        return n;
    }

    /** Starts making keys in a thread of its own until {@link #close}: converts V18 keys, then serves requests. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = new Thread(this::run, "key-maker");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        LocalDate aheadDone = null;
        while (!closed) {
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(true);
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN " + REQUESTED);
                }
                int converted = convertLegacy(c);
                if (converted > 0) {
                    LOG.warn(
                            "wrapped {} data keys made before V24 under key-encryption key {}",
                            converted,
                            keks.currentId());
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!closed) {
                    List<String> made = makeRequested(c);
                    if (!made.isEmpty()) {
                        LOG.info("made data keys {}", made);
                    }
                    LocalDate today = LocalDate.now(ZoneOffset.UTC);
                    if (!today.equals(aheadDone)) {
                        List<String> ahead = makeAhead(c, today);
                        if (!ahead.isEmpty()) {
                            LOG.info("made tomorrow's data keys {}", ahead);
                        }
                        aheadDone = today;
                    }
                    convertLegacy(c);
                    pg.getNotifications((int) LOOK_EVERY.toMillis());
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.error("the key maker failed; it starts again in {} s: {}", LOOK_EVERY.toSeconds(), e.getMessage());
                try {
                    Thread.sleep(LOOK_EVERY.toMillis()); // a retry's pause, not a synchronisation
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private boolean insert(Connection c, String board, LocalDate day) throws SQLException {
        String id = DataKeys.id(board, day);
        ContentKeys.KeyPair pair = ContentKeys.newKeyPair();
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, id);
            ps.setString(2, board);
            ps.setDate(3, Date.valueOf(day));
            ps.setBytes(4, pair.publicKey());
            ps.setBytes(5, keks.wrap(id, pair.privateKey()));
            ps.setString(6, keks.currentId());
            return ps.executeUpdate() == 1;
        }
    }

    private static void notifyMade(Connection c, List<String> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify('" + MADE + "', ?)")) {
            String payload = String.join(" ", ids);
            ps.setString(1, payload.substring(0, Math.min(7000, payload.length()))); // NOTIFY takes < 8000 bytes
            ps.execute();
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            // wakes the loop from its wait for a notification (an interrupt does not reach a socket read)
            try (Connection c = db.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("NOTIFY " + REQUESTED);
            } catch (SQLException e) {
                LOG.debug("could not wake the key maker; it stops within {} s", LOOK_EVERY.toSeconds());
            }
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
