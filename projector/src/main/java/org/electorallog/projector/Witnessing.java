package org.electorallog.projector;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.core.WitnessRequest;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Checkpoints;
import org.electorallog.store.Cosignatures;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.Tiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witness client (C2SP tlog-witness): in rounds, sends each board's latest signed checkpoint to
 * every configured witness that has not cosigned it, with a consistency proof from the size that
 * witness last cosigned (RFC 6962 section 2.1.2, from the stored tiles); on 409 it retries once from
 * the size the witness says; it verifies each returned cosignature (C2SP tlog-cosignature,
 * {@code cosignature/v1}) before storing it, and marks a checkpoint witnessed once the quorum has
 * cosigned it.
 *
 * <p>It runs on threads of its own (one per witness) and a small pool of its own, never inside a projection
 * transaction: a slow or dead witness delays only cosignatures, never projection. One process per
 * database does the work (a PostgreSQL advisory lock), so several projector instances do not
 * submit the same checkpoint twice.
 */
public final class Witnessing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Witnessing.class);
    /** The advisory lock key: one witnessing process per projection database. */
    static final long LOCK_KEY = 0x656c5f7769746e65L; // "el_witne"

    private final WitnessPolicy policy;
    private final ProjectorSettings settings;
    private final HikariDataSource db;
    private final HttpClient http;
    private final Duration timeout;
    private final ScheduledExecutorService thread;
    /**
     * Per witness and board: the last failure logged, so a witness that stays down is logged once
     * per board, not every round, and one board's refusal does not make another's success noisy.
     */
    private final Map<String, String> failing = new ConcurrentHashMap<>();

    private Connection lock;

    private Witnessing(WitnessPolicy policy, ProjectorSettings settings, HikariDataSource db, Duration timeout) {
        this.policy = policy;
        this.settings = settings;
        this.db = db;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        // one thread per witness: a witness that hangs until the timeout delays only its own rounds
        this.thread = Executors.newScheduledThreadPool(policy.witnesses().size(), r -> {
            Thread t = new Thread(r, "witnessing");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts witnessing as configured (ELECTORAL_LOG_WITNESSES, _QUORUM, _TIMEOUT_MS), a round
     * every checkpoint interval (at least 200 ms, at most 5 s); null without witnesses.
     */
    public static Witnessing start(org.electorallog.config.Configuration conf, ProjectorSettings settings) {
        WitnessPolicy policy = WitnessPolicy.parse(
                conf.list(org.electorallog.config.Setting.WITNESSES),
                conf.get(org.electorallog.config.Setting.WITNESS_QUORUM));
        Duration timeout =
                Duration.ofMillis(conf.number(org.electorallog.config.Setting.WITNESS_TIMEOUT_MS, 100, 600_000));
        long every = Math.max(200, Math.min(5000, settings.checkpointEvery().toMillis()));
        return start(policy, settings, timeout, Duration.ofMillis(every));
    }

    /**
     * Starts the rounds ({@code every} apart) against the projection database; null when the
     * policy has no witnesses.
     */
    public static Witnessing start(WitnessPolicy policy, ProjectorSettings settings, Duration timeout, Duration every) {
        if (policy.isEmpty()) {
            return null;
        }
        HikariDataSource db = ProjectionDatabase.pool(
                settings.jdbcUrl(),
                settings.dbUser(),
                settings.dbPassword(),
                Math.min(policy.witnesses().size() + 1, 8),
                "witnessing");
        Witnessing w = new Witnessing(policy, settings, db, timeout);
        for (WitnessPolicy.Entry witness : policy.witnesses()) {
            var unused = w.thread.scheduleWithFixedDelay(
                    () -> w.safeRound(witness), 0, every.toMillis(), TimeUnit.MILLISECONDS);
        }
        LOG.info("witnessing: {} witness(es), quorum {}", policy.witnesses().size(), policy.quorum());
        return w;
    }

    private void safeRound(WitnessPolicy.Entry witness) {
        try {
            round(witness);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("witnessing round for {} failed (the next round tries again): {}", witness.id(), e.toString());
            releaseLock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One round of one witness over every board: the checkpoint {@link #target} chooses to the
     * witness when it has not cosigned it, then the quorum mark. Does nothing while another process holds the
     * witnessing lock.
     */
    void round(WitnessPolicy.Entry witness) throws SQLException, InterruptedException {
        if (!holdLock()) {
            return;
        }
        List<BoardState> boards;
        try (Connection c = db.getConnection()) {
            boards = Boards.all(c);
        }
        for (BoardState b : boards) {
            try {
                witness(b, witness);
            } catch (RuntimeException e) {
                // one board's failure (a missing tile, say) must not keep the witness from the others
                failed(witness, b.board().name(), "the request could not be built or stored: " + e);
            }
        }
    }

    /** One board for one witness: the target checkpoint, the request, the quorum mark. */
    private void witness(BoardState b, WitnessPolicy.Entry witness) throws SQLException, InterruptedException {
        short boardId = b.board().id();
        long last;
        CheckpointRow cp;
        try (Connection c = db.getConnection()) {
            last = Cosignatures.lastSize(c, boardId, witness.id());
            cp = target(c, boardId, witness, last);
        }
        if (cp == null || last >= cp.size()) {
            return;
        }
        long stored = submit(boardId, b.board().name(), cp, witness, last);
        if (stored < 0) {
            return;
        }
        try (Connection c = db.getConnection()) {
            if (Cosignatures.markWitnessed(c, boardId, stored, policy.quorum())) {
                LOG.debug("board {} checkpoint {} witnessed", b.board().name(), stored);
            }
        }
    }

    /**
     * The checkpoint to ask {@code witness} for: one that other witnesses cosigned short of the
     * quorum, after the size this witness last cosigned, when there is one (so that witnesses asked a
     * moment apart converge on one size while checkpoints keep coming); else the latest.
     */
    private CheckpointRow target(Connection c, short boardId, WitnessPolicy.Entry witness, long last)
            throws SQLException {
        java.util.Optional<Long> help = Cosignatures.shortOfQuorum(c, boardId, witness.id(), last, policy.quorum());
        if (help.isPresent()) {
            java.util.Optional<CheckpointRow> cp = Checkpoints.at(c, boardId, help.get());
            if (cp.isPresent()) {
                return cp.get();
            }
        }
        return Checkpoints.latest(c, boardId).orElse(null);
    }

    /**
     * Asks one witness to cosign {@code cp}, from {@code last}, the size it last cosigned as far as
     * we know; the size whose cosignature this call stored, or -1. On a
     * 409 it goes on once from the size the witness says: ours was lost (a restored database), or
     * the witness already cosigned past {@code cp}, and then the latest checkpoint is asked for.
     */
    private long submit(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w, long last)
            throws SQLException, InterruptedException {
        long old = last;
        for (int attempt = 0; attempt < 2; attempt++) {
            HttpResponse<String> r;
            try {
                r = http.send(
                        HttpRequest.newBuilder(URI.create(w.url() + "/add-checkpoint"))
                                .timeout(timeout)
                                .POST(HttpRequest.BodyPublishers.ofString(request(boardId, cp, old)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (java.net.http.HttpTimeoutException e) {
                failed(w, board, "no answer within " + timeout.toMillis() + " ms (ELECTORAL_LOG_WITNESS_TIMEOUT_MS)");
                return -1;
            } catch (IOException e) {
                failed(w, board, "unreachable (" + e + ")");
                return -1;
            }
            if (r.statusCode() == 200) {
                return store(boardId, board, cp, w, r.body()) ? cp.size() : -1;
            }
            if (r.statusCode() == 409 && attempt == 0) {
                long theirs = witnessSize(r.body());
                if (theirs < 0) {
                    failed(
                            w,
                            board,
                            "409 with a body that is not a size: " + r.body().strip());
                    return -1;
                }
                if (theirs > cp.size()) {
                    CheckpointRow latest;
                    try (Connection c = db.getConnection()) {
                        latest = Checkpoints.latest(c, boardId).orElse(cp);
                    }
                    if (theirs > latest.size()) {
                        failed(
                                w,
                                board,
                                "it has cosigned size " + theirs + " of this board's origin, beyond our latest "
                                        + "checkpoint " + latest.size()
                                        + ": another log signed this origin, or this projection "
                                        + "was rebuilt from a shorter topic (docs/witnesses.md)");
                        return -1;
                    }
                    cp = latest; // it is past the checkpoint we asked for: ask for the latest instead
                } else if (theirs == old) {
                    failed(
                            w,
                            board,
                            "409 at its own size " + theirs + ": it holds another root at that size "
                                    + "(a split view, docs/witnesses.md)");
                    return -1;
                }
                old = theirs; // our record is behind the witness (for example a restored database): go on from its size
                continue;
            }
            failed(w, board, r.statusCode() + " " + r.body().strip());
            return -1;
        }
        return -1;
    }

    private String request(short boardId, CheckpointRow cp, long old) throws SQLException {
        try (Connection c = db.getConnection()) {
            List<byte[]> proof = old == 0 || old == cp.size()
                    ? List.of()
                    : ProofBuilder.consistency(old, cp.size(), Tiles.source(c, boardId));
            return new WitnessRequest(old, proof, cp.note()).format();
        }
    }

    private boolean store(short boardId, String board, CheckpointRow cp, WitnessPolicy.Entry w, String body)
            throws SQLException {
        SignedNote.Signature line;
        try {
            SignedNote cosigned = SignedNote.parse(cp.note() + body);
            Checkpoint.parse(cosigned.text());
            line = w.verifier().cosignature(cosigned);
        } catch (ProofException e) {
            failed(
                    w,
                    board,
                    "its answer holds no valid cosignature of checkpoint " + cp.size() + ": " + e.getMessage());
            return false;
        }
        long timestamp = ByteBuffer.wrap(line.signature(), 0, 8).getLong();
        try (Connection c = db.getConnection()) {
            Cosignatures.add(c, boardId, cp.size(), w.id(), line.line(), timestamp);
        }
        if (failing.remove(w.id() + " " + board) != null) {
            LOG.info("witness {} cosigns again (board {}, size {})", w.id(), board, cp.size());
        }
        return true;
    }

    private void failed(WitnessPolicy.Entry w, String board, String why) {
        String message = "witness " + w.id() + " at " + w.url() + " did not cosign board " + board + ": " + why;
        if (!message.equals(failing.put(w.id() + " " + board, message))) {
            LOG.warn("{} (projection goes on; retried every round; logged again when the reason changes)", message);
        }
    }

    /** The size in a 409's {@code text/x.tlog.size} body, or -1. */
    static long witnessSize(String body) {
        String s = body.strip();
        return s.matches("0|[1-9][0-9]{0,18}") ? Long.parseLong(s) : -1;
    }

    private synchronized boolean holdLock() throws SQLException {
        if (lock != null && lock.isValid(2)) {
            return true;
        }
        releaseLock();
        lock = ProjectionDatabase.advisoryLock(settings.jdbcUrl(), settings.dbUser(), settings.dbPassword(), LOCK_KEY);
        return lock != null;
    }

    private synchronized void releaseLock() {
        if (lock != null) {
            try {
                lock.close(); // ending the session releases its advisory lock
            } catch (SQLException e) {
                LOG.debug("closing the witnessing lock connection: {}", e.toString());
            }
            lock = null;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        releaseLock();
        db.close();
    }
}
