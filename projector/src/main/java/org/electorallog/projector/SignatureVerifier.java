package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.BadEventException;

/**
 * Checks the statement signatures of a whole batch against the {@link SignaturePolicy}, on several
 * cores at once (decision 61), while the batch is written (decision 77; by the task's batch writer
 * thread since decision 78): {@link #start}
 * cuts the batch into slices and hands them to a pool shared by the projector's tasks; {@link
 * Verification#refused} is asked just before the batch's transaction commits, runs on the calling
 * thread every slice the pool has not started yet, and waits for the others. Ed25519 verification is
 * the projector's costliest step on signed boards (about 100 µs a statement on the 2-core machine),
 * and each statement's check is independent of the others and of the database, so the verdicts are
 * the same as one by one, in batch order. The statements the log makes about itself are checked by
 * {@link LogStatementCheck} instead, whatever the policy (issue 61 item 1).
 *
 * <p>A batch shorter than {@link #SERIAL_BELOW}, or any batch when there is one thread, is checked on
 * the calling thread at once: handing it over would cost more than it saves. With policy {@code
 * NONE} only the log's own statements are checked, on the calling thread, and no thread is started.
 */
final class SignatureVerifier implements AutoCloseable {
    static final int SERIAL_BELOW = 64;
    /** Slices per pool thread: the calling thread can take the last ones when it gets there first. */
    private static final int SLICES_PER_THREAD = 4;

    private final SignaturePolicy policy;
    private final LogStatementCheck log;
    private final int threads;
    private ExecutorService pool;

    /**
     * {@code log}: the check of the statements the log makes about itself, which applies whatever
     * the policy; {@code threads}: the pool's threads (at least 1; with 1, batches are checked on the
     * calling thread).
     */
    SignatureVerifier(SignaturePolicy policy, LogStatementCheck log, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("signature verification needs at least 1 thread, got " + threads);
        }
        this.policy = policy;
        this.log = log;
        this.threads = threads;
    }

    /** One thread per core of this machine. */
    static SignatureVerifier forThisMachine(SignaturePolicy policy, LogStatementCheck log) {
        return new SignatureVerifier(policy, log, Runtime.getRuntime().availableProcessors());
    }

    /** The events of {@code batch} whose signatures the policy refuses, with reason and message, in batch order. */
    List<BoardWriter.Refused> refused(List<PendingEvent> batch) {
        return start(batch).refused();
    }

    /**
     * Starts checking {@code batch}: at once on the calling thread when it is short (then {@link
     * Verification#settled}), else in slices on the pool.
     */
    Verification start(List<PendingEvent> batch) {
        BadEventException[] verdicts = new BadEventException[batch.size()];
        if (policy.mode() == SignaturePolicy.Mode.NONE || batch.isEmpty()) {
            // the log's own statements are checked whatever the policy; they are few (a seal, an
            // account, the heads entries), so on this thread
            for (int i = 0; i < batch.size(); i++) {
                try {
                    log.check(batch.get(i).statement());
                } catch (BadEventException e) {
                    verdicts[i] = e;
                }
            }
            return new Verification(batch, verdicts, List.of());
        }
        if (batch.size() < SERIAL_BELOW || threads == 1) {
            check(batch, verdicts, 0, batch.size());
            return new Verification(batch, verdicts, List.of());
        }
        int slices = Math.max(1, Math.min(threads * SLICES_PER_THREAD, batch.size() / SERIAL_BELOW));
        int step = (batch.size() + slices - 1) / slices;
        List<FutureTask<Void>> tasks = new ArrayList<>();
        for (int from = 0; from < batch.size(); from += step) {
            int start = from;
            int end = Math.min(batch.size(), from + step);
            FutureTask<Void> task = new FutureTask<>(() -> check(batch, verdicts, start, end), null);
            tasks.add(task);
            pool().execute(task);
        }
        return new Verification(batch, verdicts, tasks);
    }

    /**
     * One batch's check, used by one thread at a time (the task's stream thread starts it, its batch
     * writer asks for the verdicts, decision 78): {@link #refused} is the only way to them, and it
     * waits until every slice has run.
     */
    static final class Verification {
        private final List<PendingEvent> batch;
        private final BadEventException[] verdicts;
        private final List<FutureTask<Void>> slices;
        private List<BoardWriter.Refused> refused;

        private Verification(List<PendingEvent> batch, BadEventException[] verdicts, List<FutureTask<Void>> slices) {
            this.batch = batch;
            this.verdicts = verdicts;
            this.slices = slices;
        }

        /** True when the verdicts were reached on the calling thread already (no slice runs elsewhere). */
        boolean settled() {
            return slices.isEmpty();
        }

        /**
         * The refused events with reason and message, in batch order, once every slice has run: those
         * the pool has not started run on this thread, the others are waited for.
         */
        List<BoardWriter.Refused> refused() {
            if (refused != null) {
                return refused;
            }
            for (FutureTask<Void> slice : slices) {
                slice.run(); // a no-op when the pool has started or finished it
            }
            for (FutureTask<Void> slice : slices) {
                try {
                    slice.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while verifying a batch's signatures", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException(
                            "verifying a batch's signatures failed: " + e.getCause(), e.getCause());
                } catch (CancellationException e) {
                    throw new IllegalStateException("the verification of a batch's signatures was cancelled", e);
                }
            }
            List<BoardWriter.Refused> out = new ArrayList<>();
            for (int i = 0; i < verdicts.length; i++) {
                if (verdicts[i] != null) {
                    out.add(new BoardWriter.Refused(batch.get(i), verdicts[i].reason(), verdicts[i].getMessage()));
                }
            }
            refused = List.copyOf(out);
            return refused;
        }

        /** Drops the slices the pool has not started (the batch is abandoned); running ones finish on their own. */
        void cancel() {
            for (FutureTask<Void> slice : slices) {
                slice.cancel(false);
            }
        }
    }

    private void check(List<PendingEvent> batch, BadEventException[] verdicts, int from, int to) {
        // each slice decodes its senders' keys once (a slice is one thread's: no sharing)
        Map<ByteBuffer, SigningKey.PublicKey> senderKeys = new HashMap<>();
        for (int i = from; i < to; i++) {
            try {
                if (!log.check(batch.get(i).statement())) {
                    policy.check(batch.get(i).statement(), senderKeys);
                }
            } catch (BadEventException e) {
                verdicts[i] = e;
            }
        }
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            AtomicInteger n = new AtomicInteger();
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "electoral-log-verify-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
    }
}
