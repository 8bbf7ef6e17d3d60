package org.electorallog.audit;

import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.TileTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background verifier: every few seconds it checks, board by board, the records added since its
 * last pass (their leaves, chained into its own copy of the tree, must give the stored root), and on
 * a longer interval it runs the full audit of every board. Its status is served by the admin API.
 */
public final class IncrementalVerifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IncrementalVerifier.class);

    private final DataSource db;
    private final AuditOptions options;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "incremental-verifier");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, TileTree> trees = new ConcurrentHashMap<>();
    private final Map<String, Long> problems = new ConcurrentHashMap<>();
    private final Map<String, String> lastFullAudit = new ConcurrentHashMap<>();
    private volatile Instant lastPass;
    private volatile String lastError;

    public IncrementalVerifier(DataSource db, AuditOptions options) {
        this.db = db;
        this.options = options;
    }

    /** Starts checking every {@code every}, and the full audit of every board every {@code fullEvery}. */
    public IncrementalVerifier start(Duration every, Duration fullEvery) {
        scheduler.scheduleWithFixedDelay(this::safePass, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::safeFullAudit, fullEvery.toMillis(), fullEvery.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void safePass() {
        try {
            pass();
            lastError = null;
        } catch (Exception e) {
            lastError = e.toString();
            LOG.warn("incremental verification failed: {}", e.toString());
        }
    }

    private void safeFullAudit() {
        try {
            for (String board : boards()) {
                AuditResult r = new BoardAuditor(db, options).audit(board, new BoardAuditor.Progress());
                lastFullAudit.put(board, (r.clean() ? "clean" : "findings " + r.counts()) + " at " + Instant.now()
                        + " (" + r.recordsChecked() + " records)");
                if (!r.clean()) {
                    LOG.error("full audit of board {} found: {}", board, r.toJson());
                }
            }
        } catch (Exception e) {
            lastError = e.toString();
            LOG.warn("full audit failed: {}", e.toString());
        }
    }

    private List<String> boards() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.getConnection(); ResultSet rs = c.createStatement().executeQuery("SELECT name FROM boards ORDER BY name")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** One pass over every board: the records added since the last pass, in one snapshot per board. */
    public synchronized void pass() throws SQLException {
        for (String board : boards()) {
            verifyNew(board);
        }
        lastPass = Instant.now();
    }

    private void verifyNew(String board) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                short id;
                long size;
                byte[] root;
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT b.board_id, s.size, s.root FROM boards b JOIN board_state s USING (board_id) WHERE b.name = ?")) {
                    ps.setString(1, board);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            return;
                        }
                        id = rs.getShort(1);
                        size = rs.getLong(2);
                        root = rs.getBytes(3);
                    }
                }
                TileTree tree = trees.computeIfAbsent(board, b -> TileTree.empty());
                if (tree.size() > size) {
                    problem(board, "the board shrank from " + tree.size() + " to " + size + " records");
                    trees.put(board, TileTree.empty());
                    return;
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT id, statement FROM records WHERE board_id = ? AND id >= ? AND id < ? ORDER BY id")) {
                    for (long from = tree.size(); from < size; from += options.pageSize()) {
                        ps.setShort(1, id);
                        ps.setLong(2, from);
                        ps.setLong(3, Math.min(size, from + options.pageSize()));
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                if (rs.getLong(1) != tree.size()) {
                                    problem(board, "record " + tree.size() + " is missing");
                                    trees.remove(board);
                                    return;
                                }
                                tree.appendLeafHash(Hashes.leafHash(rs.getBytes(2)));
                            }
                        }
                        // the verifier keeps no tiles: forget them once per page, not per record
                        tree.drainChangedTiles();
                    }
                }
                if (tree.size() != size || !MessageDigest.isEqual(tree.root(), root)) {
                    problem(board, "the records give root " + Hex.encode(tree.root()) + " at size " + tree.size()
                            + ", the board state says " + Hex.encode(root) + " at " + size);
                    trees.remove(board);
                }
            } finally {
                c.rollback();
            }
        }
    }

    private void problem(String board, String what) {
        problems.merge(board, 1L, Long::sum);
        LOG.error("incremental verification of board {}: {}", board, what);
    }

    /** Status for the admin endpoint and metrics. */
    public Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("last_pass", lastPass == null ? null : lastPass.toString());
        Map<String, Object> boards = new LinkedHashMap<>();
        trees.forEach((b, t) -> boards.put(b, Map.of("verified_size", t.size(), "problems", problems.getOrDefault(b, 0L),
                "last_full_audit", lastFullAudit.getOrDefault(b, "not yet"))));
        m.put("boards", boards);
        m.put("problems", problems.values().stream().mapToLong(Long::longValue).sum());
        m.put("last_error", lastError);
        return m;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
