package org.electorallog.projector;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;
import org.electorallog.core.Cosigner;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.BoardState;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.LogReader;
import org.electorallog.store.LogWriter;
import org.electorallog.store.Projection;
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
 *
 * <p>In {@code HEADS} mode (docs/witnesses.md "One witness round for every board") the same process
 * also runs the {@link HeadWriter} each round, and the witnesses are sent the heads board's
 * checkpoints only: one request a witness a round, whatever the number of boards.
 */
public final class Witnessing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Witnessing.class);

    private final WitnessPolicy policy;
    private final Projection db;
    private final WitnessSubmission submission;
    private final ScheduledExecutorService thread;
    /** The head writer in HEADS mode; null in BOARDS mode, where every board goes to the witnesses. */
    private final HeadWriter heads;

    private final WitnessingLock lock;

    private Witnessing(
            WitnessPolicy policy, ProjectorSettings settings, Projection db, Duration timeout, HeadWriter heads) {
        this.policy = policy;
        this.heads = heads;
        this.lock = new WitnessingLock(settings);
        this.db = db;
        this.submission = new WitnessSubmission(db, timeout, policy.witnesses());
        // one thread per witness: a witness that hangs until the timeout delays only its own rounds
        this.thread = Executors.newScheduledThreadPool(policy.witnesses().size() + (heads == null ? 0 : 1), r -> {
            Thread t = new Thread(r, "witnessing");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts witnessing as configured (ELECTORAL_LOG_WITNESSES, _QUORUM, _TIMEOUT_MS, _WITNESS_MODE),
     * a round every checkpoint interval (at least 200 ms, at most 5 s); null
     * without witnesses.
     */
    public static Witnessing start(Configuration conf, ProjectorSettings settings) {
        WitnessPolicy policy = WitnessPolicy.of(
                conf.fileText(Setting.WITNESS_POLICY_FILE),
                conf.list(Setting.WITNESSES),
                conf.get(Setting.WITNESS_QUORUM));
        Duration timeout = Duration.ofMillis(conf.number(Setting.WITNESS_TIMEOUT_MS));
        long every = Math.max(200, Math.min(5000, settings.checkpointEvery().toMillis()));
        String mode = conf.get(Setting.WITNESS_MODE);
        if ("BOARDS".equals(mode) || policy.isEmpty()) {
            return start(policy, settings, timeout, Duration.ofMillis(every));
        }
        if (!"HEADS".equals(mode)) {
            throw new IllegalArgumentException(
                    Setting.WITNESS_MODE.env + " must be BOARDS or HEADS, got '" + mode + "'");
        }
        return startHeads(policy, settings, timeout, Duration.ofMillis(every));
    }

    /**
     * Starts the rounds in HEADS mode: the head writer signs the heads board's entries with the log's
     * key (decision 130) and only the heads board's checkpoints go to the witnesses.
     */
    public static Witnessing startHeads(
            WitnessPolicy policy, ProjectorSettings settings, Duration timeout, Duration every) {
        return start(policy, settings, timeout, every, HeadWriter.create(settings));
    }

    /** Starts the rounds in BOARDS mode: every board's checkpoints go to the witnesses. */
    public static Witnessing start(WitnessPolicy policy, ProjectorSettings settings, Duration timeout, Duration every) {
        return start(policy, settings, timeout, every, null);
    }

    /**
     * Starts the rounds ({@code every} apart) against the projection database, with {@code heads}
     * writing the heads board (HEADS mode) or null (BOARDS mode); null when the policy has no
     * witnesses.
     */
    static Witnessing start(
            WitnessPolicy policy, ProjectorSettings settings, Duration timeout, Duration every, HeadWriter heads) {
        if (policy.isEmpty()) {
            if (heads != null) {
                heads.close();
            }
            return null;
        }
        Witnessing w = unscheduled(policy, settings, timeout, heads);
        if (heads != null) {
            var unused = w.thread.scheduleWithFixedDelay(w::safeHeadRound, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        }
        for (WitnessPolicy.Entry witness : policy.witnesses()) {
            var unused = w.thread.scheduleWithFixedDelay(
                    () -> w.safeRound(witness), 0, every.toMillis(), TimeUnit.MILLISECONDS);
        }
        LOG.info(
                "witnessing: {} witness key(s), quorum {}, {}",
                policy.witnesses().size(),
                policy.describe(),
                heads == null ? "every board" : "the heads board");
        return w;
    }

    /**
     * Witnessing in HEADS mode ({@code heads}; else BOARDS mode) whose rounds run only when the caller
     * runs them ({@link #headRound}, {@link #round}): for tests and the perf module's measure of
     * requests a round.
     */
    public static Witnessing unscheduled(
            WitnessPolicy policy, ProjectorSettings settings, Duration timeout, boolean heads) {
        return unscheduled(policy, settings, timeout, heads ? HeadWriter.create(settings) : null);
    }

    static Witnessing unscheduled(
            WitnessPolicy policy, ProjectorSettings settings, Duration timeout, HeadWriter heads) {
        Projection db =
                Projection.open(settings.login(), Math.min(policy.witnesses().size() + 1, 8), "witnessing");
        return new Witnessing(policy, settings, db, timeout, heads);
    }

    private void safeRound(WitnessPolicy.Entry witness) {
        try {
            round(witness);
        } catch (RuntimeException e) {
            LOG.warn("witnessing round for {} failed (the next round tries again): {}", witness.id(), e.toString());
            lock.release();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void safeHeadRound() {
        try {
            headRound();
        } catch (RuntimeException e) {
            LOG.warn("head round failed (the next round tries again): {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One head round (HEADS mode): the heads entries of the boards whose checkpoint changed, sent and
     * acknowledged. Returns how many were sent; 0 while another process holds the witnessing lock.
     */
    public int headRound() throws InterruptedException {
        if (!lock.hold()) {
            return 0;
        }
        return heads.round(db);
    }

    /**
     * One round of one witness over every board (the heads board alone in HEADS mode): the checkpoint {@link #target} chooses to the
     * witness when it has not cosigned it, then the quorum mark. Does nothing while another process holds the
     * witnessing lock.
     */
    public void round(WitnessPolicy.Entry witness) throws InterruptedException {
        if (!lock.hold()) {
            return;
        }
        List<BoardState> boards = db.statement(LogReader::boards);
        for (BoardState b : boards) {
            if (heads != null && !b.board().name().equals(HeadsBoard.NAME)) {
                continue;
            }
            try {
                witness(b, witness);
            } catch (RuntimeException e) {
                // one board's failure (a missing tile, say) must not keep the witness from the others
                submission.failed(witness, b.board().name(), "the request could not be built or stored: " + e);
            }
        }
    }

    /** One board for one witness: the target checkpoint, the request, the quorum mark. */
    private void witness(BoardState b, WitnessPolicy.Entry witness) throws InterruptedException {
        short boardId = b.board().id();
        long last = db.autocommit(c -> c.lastCosignedSize(boardId, witness.id()));
        CheckpointRow cp = db.autocommit(c -> target(c, boardId, witness, last));
        if (cp == null || last >= cp.size()) {
            return;
        }
        long stored = submission.submit(boardId, b.board().name(), cp, witness, last);
        if (stored < 0) {
            return;
        }
        if (markIfWitnessed(boardId, stored)) {
            LOG.debug("board {} checkpoint {} witnessed", b.board().name(), stored);
        }
    }

    /**
     * Marks the checkpoint witnessed when the witness keys whose cosignatures are stored for it (each
     * verified before it was stored) meet the policy (C2SP tlog-policy, groups included); whether it
     * did now.
     */
    private boolean markIfWitnessed(short boardId, long size) {
        return db.autocommit(c -> {
            Set<String> stored = c.witnessesAt(boardId, size);
            List<Cosigner.Verifier> cosigned = policy.verifiers().stream()
                    .filter(v -> stored.contains(WitnessPolicy.id(v)))
                    .toList();
            return policy.met(cosigned) && c.markWitnessed(boardId, size);
        });
    }

    /**
     * The checkpoint to ask {@code witness} for: one that other witnesses cosigned short of the
     * quorum, after the size this witness last cosigned, when there is one (so that witnesses asked a
     * moment apart converge on one size while checkpoints keep coming); else the latest.
     */
    private CheckpointRow target(LogWriter c, short boardId, WitnessPolicy.Entry witness, long last) {
        Optional<Long> help = c.shortOfQuorum(boardId, witness.id(), last);
        if (help.isPresent()) {
            Optional<CheckpointRow> cp = c.checkpointAt(boardId, help.get());
            if (cp.isPresent()) {
                return cp.get();
            }
        }
        return c.reads().latestCheckpoint(boardId).orElse(null);
    }

    /**
     * Registers, for each witness of the policy, {@code electoral_log_witness_cosignature_age_seconds}:
     * seconds since this projector last stored its cosignature (since it started, when none yet).
     * infra/deploy/prometheus-rules.yml's WitnessNotCosigning alerts on it while records wait.
     */
    public void bindTo(MeterRegistry registry) {
        long started = System.currentTimeMillis();
        for (WitnessPolicy.Entry w : policy.witnesses()) {
            Gauge.builder(
                            "electoral_log_witness_cosignature_age_seconds",
                            submission,
                            s -> (System.currentTimeMillis() - s.lastCosigned(w.id(), started)) / 1000.0)
                    .description("seconds since this projector last stored a cosignature by the witness")
                    .tag("witness", w.id())
                    .register(registry);
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
        lock.release();
        if (heads != null) {
            heads.close();
        }
        db.close();
    }
}
