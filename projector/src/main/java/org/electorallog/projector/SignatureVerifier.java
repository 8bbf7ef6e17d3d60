package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.BadEventException;

/**
 * Checks the statement signatures of a whole batch against the {@link SignaturePolicy}, on several
 * cores at once (decision 61): the batch is cut into one slice per thread, the calling stream thread
 * takes one slice and a pool shared by the projector's tasks the others. Ed25519 verification is the
 * projector's costliest step on signed boards (tens of microseconds a statement), and each
 * statement's check is independent of the others, so the verdicts are the same as one by one, in
 * batch order.
 *
 * <p>A batch shorter than {@link #SERIAL_BELOW} is checked on the calling thread: handing it over
 * would cost more than it saves. With policy {@code NONE} nothing is checked and no thread started.
 */
final class SignatureVerifier implements AutoCloseable {
    static final int SERIAL_BELOW = 64;

    private final SignaturePolicy policy;
    private final int threads;
    private ExecutorService pool;

    /** {@code threads}: slices a batch is cut into, counting the calling thread (at least 1). */
    SignatureVerifier(SignaturePolicy policy, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("signature verification needs at least 1 thread, got " + threads);
        }
        this.policy = policy;
        this.threads = threads;
    }

    /** One thread per core of this machine. */
    static SignatureVerifier forThisMachine(SignaturePolicy policy) {
        return new SignatureVerifier(policy, Runtime.getRuntime().availableProcessors());
    }

    /** The events of {@code batch} whose signatures the policy refuses, with reason and message, in batch order. */
    List<BoardWriter.Refused> refused(List<PendingEvent> batch) {
        if (policy.mode() == SignaturePolicy.Mode.NONE || batch.isEmpty()) {
            return List.of();
        }
        BadEventException[] verdicts = new BadEventException[batch.size()];
        int slices = batch.size() < SERIAL_BELOW ? 1 : threads;
        int step = (batch.size() + slices - 1) / slices;
        List<Future<?>> others = new ArrayList<>();
        for (int from = step; from < batch.size(); from += step) {
            int start = from;
            int end = Math.min(batch.size(), from + step);
            others.add(pool().submit(() -> check(batch, verdicts, start, end)));
        }
        check(batch, verdicts, 0, Math.min(step, batch.size()));
        for (Future<?> f : others) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while verifying a batch's signatures", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("verifying a batch's signatures failed: " + e.getCause(), e.getCause());
            }
        }
        List<BoardWriter.Refused> refused = new ArrayList<>();
        for (int i = 0; i < verdicts.length; i++) {
            if (verdicts[i] != null) {
                refused.add(new BoardWriter.Refused(batch.get(i), verdicts[i].reason(), verdicts[i].getMessage()));
            }
        }
        return refused;
    }

    private void check(List<PendingEvent> batch, BadEventException[] verdicts, int from, int to) {
        // each slice decodes its senders' keys once (a slice is one thread's: no sharing)
        Map<ByteBuffer, SigningKey.PublicKey> senderKeys = new HashMap<>();
        for (int i = from; i < to; i++) {
            try {
                policy.check(batch.get(i).statement(), senderKeys);
            } catch (BadEventException e) {
                verdicts[i] = e;
            }
        }
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            AtomicInteger n = new AtomicInteger();
            pool = Executors.newFixedThreadPool(Math.max(1, threads - 1), r -> {
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
