package org.electorallog.audit;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofException;
import org.electorallog.core.TileTree;
import org.electorallog.store.BoardState;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background verifier: every few seconds it checks, board by board, the records added since its
 * last pass (their leaves, chained into its own copy of the tree, must give the stored root), and on
 * a longer interval it runs the full audit of every board. Its status is served by the admin API.
 */
public final class IncrementalVerifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IncrementalVerifier.class);

    private final Projection db;
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

    private final VerifiedCheckpoints verified;

    /** A verifier that remembers what it verified in memory only (tests; see the other constructor). */
    public IncrementalVerifier(Projection db, AuditOptions options) {
        this(db, options, null);
    }

    /**
     * A verifier that checks the log's signature on each board's latest checkpoint (so it needs the
     * log's verifier keys) and keeps the largest checkpoint it verified in {@code memory}, outside
     * the projection, to report a board that shrinks or forks below it, across its own restarts.
     */
    public IncrementalVerifier(Projection projection, AuditOptions options, Path memory) {
        if (options.logKeys().isEmpty()) {
            throw new IllegalArgumentException("the verifier needs the log's verifier keys (ELECTORAL_LOG_LOG_KEYS): "
                    + "without them it cannot tell the log's checkpoints from forged ones");
        }
        this.db = projection;
        this.options = options;
        this.verified = new VerifiedCheckpoints(memory);
    }

    /** Starts checking every {@code every}, and the full audit of every board every {@code fullEvery}. */
    public IncrementalVerifier start(Duration every, Duration fullEvery) {
        scheduler.scheduleWithFixedDelay(this::safePass, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(
                this::safeFullAudit, fullEvery.toMillis(), fullEvery.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void safePass() {
        try {
            pass();
            lastError = null;
        } catch (Exception e) {
            if (scheduler.isShutdown()) {
                // closed under a pass: the pools go next, and what the pass met says nothing of the log
                LOG.debug("incremental verification stopped by close: {}", e.toString());
                return;
            }
            lastError = e.toString();
            LOG.warn("incremental verification failed: {}", e.toString());
        }
    }

    private void safeFullAudit() {
        try {
            for (String board : db.boardNames()) {
                AuditResult r = new BoardAuditor(db, options).audit(board, new BoardAuditor.Progress());
                lastFullAudit.put(
                        board,
                        (r.clean() ? "clean" : "findings " + r.counts()) + " at " + Instant.now() + " ("
                                + r.recordsChecked() + " records)");
                if (!r.clean()) {
                    LOG.error("full audit of board {} found: {}", board, r.toJson());
                }
            }
        } catch (Exception e) {
            lastError = e.toString();
            LOG.warn("full audit failed: {}", e.toString());
        }
    }

    /** One pass over every board: the records added since the last pass, in one snapshot per board. */
    public synchronized void pass() {
        for (String board : db.boardNames()) {
            verifyNew(board);
        }
        lastPass = Instant.now();
    }

    private void verifyNew(String board) {
        db.read(c -> {
            BoardState state = c.state(board).orElse(null);
            if (state == null) {
                return null;
            }
            long size = state.size();
            VerifiedCheckpoints.Verified remembered = verified.get(board);
            if (remembered != null && size < remembered.size()) {
                problem(
                        board,
                        "the board has " + size + " records, fewer than the checkpoint at size " + remembered.size()
                                + " this verifier verified: the projection was rolled back");
                return null;
            }
            TileTree tree = trees.computeIfAbsent(board, b -> TileTree.empty());
            if (tree.size() > size) {
                problem(board, "the board shrank from " + tree.size() + " to " + size + " records");
                trees.put(board, TileTree.empty());
                return null;
            }
            boolean[] forked = {false};
            for (long from = tree.size(); from < size; from += options.pageSize()) {
                boolean[] gap = {false};
                c.statements(state.board().id(), from, Math.min(size, from + options.pageSize()), (id, statement) -> {
                    if (id != tree.size()) {
                        gap[0] = true;
                        return false;
                    }
                    tree.appendLeafHash(Hashes.leafHash(statement));
                    if (remembered != null
                            && tree.size() == remembered.size()
                            && !Base64.getEncoder().encodeToString(tree.root()).equals(remembered.root())) {
                        forked[0] = true;
                    }
                    return true;
                });
                if (gap[0]) {
                    problem(board, "record " + tree.size() + " is missing");
                    trees.remove(board);
                    return null;
                }
                // the verifier keeps no tiles: forget them once per page, not per record
                tree.drainChangedTiles();
            }
            if (forked[0]) {
                problem(
                        board,
                        "the records give another tree at size " + remembered.size() + " than the checkpoint "
                                + "this verifier verified there: the log forked");
                trees.remove(board);
                return null;
            }
            if (tree.size() != size || !MessageDigest.isEqual(tree.root(), state.root())) {
                problem(
                        board,
                        "the records give root " + Hex.encode(tree.root()) + " at size " + tree.size()
                                + ", the board state says " + Hex.encode(state.root()) + " at " + size);
                trees.remove(board);
                return null;
            }
            rememberLatestCheckpoint(c, board, state, tree);
            return null;
        });
    }

    /**
     * The board's latest checkpoint, when it is at the size just verified: its signature must verify
     * with the log's keys and its root must be the recomputed one; then it is remembered.
     */
    private void rememberLatestCheckpoint(LogReader c, String board, BoardState state, TileTree tree) {
        CheckpointRow cp = c.latestCheckpoint(state.board().id()).orElse(null);
        if (cp == null || cp.size() != tree.size()) {
            return;
        }
        Checkpoint opened;
        try {
            opened = Checkpoint.open(cp.note(), options.logKeys());
        } catch (ProofException e) {
            problem(
                    board,
                    "the checkpoint at size " + cp.size() + " does not verify with the log's keys: " + e.getMessage());
            return;
        }
        if (!opened.origin().equals(state.board().origin()) || !MessageDigest.isEqual(opened.root(), tree.root())) {
            problem(board, "the signed checkpoint at size " + cp.size() + " is not this board's tree");
            return;
        }
        verified.remember(board, cp.size(), tree.root());
    }

    private void problem(String board, String what) {
        problems.merge(board, 1L, Long::sum);
        LOG.error("incremental verification of board {}: {}", board, what);
    }

    /** One board as the verifier knows it. */
    public record BoardStatus(long verifiedSize, long problems, String lastFullAudit) {}

    /**
     * What the verifier found, for the admin endpoint (JSON in snake_case).
     *
     * @param lastPass  when the last pass over every board ended (RFC 3339), null before the first
     * @param boards    each verified board
     * @param problems  problems found on all boards
     * @param lastError why the last pass failed, null when it did not
     */
    public record Status(String lastPass, Map<String, BoardStatus> boards, long problems, String lastError) {}

    /** Problems found on all boards since start. */
    public long problems() {
        return problems.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Status for the admin endpoint. */
    public Status status() {
        Map<String, BoardStatus> boards = new TreeMap<>();
        trees.forEach((b, t) -> boards.put(
                b, new BoardStatus(t.size(), problems.getOrDefault(b, 0L), lastFullAudit.getOrDefault(b, "not yet"))));
        Instant last = lastPass;
        return new Status(last == null ? null : last.toString(), boards, problems(), lastError);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            // a pass in progress ends before the caller closes the pools it reads (bounded: a full
            // audit of a large board does not hold a shutdown for long)
            if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.info("incremental verifier: a pass still running at close is left to end on its own");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
