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
 * Checks the statement signatures of a batch against the {@link SignaturePolicy} on a pool shared by
 * the projector's tasks, one thread per core (decision 61), while the batch fills and while it is
 * written (decision 77). A task {@link #open}s a {@link Verification} for its next batch and {@link
 * Verification#add}s each valid event as it arrives; every {@link #SLICE} events go to the pool as
 * one slice, so the pool verifies while the stream thread decodes the next events. When the batch
 * is full, {@link Verification#close} sends the rest, and the stream thread writes the batch; just
 * before its transaction commits, {@link Verification#refused} runs on the calling thread every slice
 * the pool has not started and waits for the others. Ed25519 verification is the projector's
 * costliest step on signed boards (about 100 µs a statement on the 2-core machine), and each
 * statement's check is independent of the others and of the database, so the verdicts are the same
 * as one by one, in batch order.
 *
 * <p>A batch that closes shorter than {@link #SERIAL_BELOW} with no slice sent, or any batch when
 * there is one thread, is checked on the calling thread when it closes: handing it over would cost
 * more than it saves. With policy {@code NONE} nothing is checked and no thread started.
 */
final class SignatureVerifier implements AutoCloseable {
    static final int SERIAL_BELOW = 64;
    /** Events a slice: about 13 ms of checks, a few key decodings (one per sender and slice). */
    static final int SLICE = 128;

    private final SignaturePolicy policy;
    private final int threads;
    private ExecutorService pool;

    /** {@code threads}: the pool's threads (at least 1; with 1, batches are checked on the calling thread). */
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
        return start(batch).refused();
    }

    /** A whole batch at once: {@link #open}, every event added, closed. */
    Verification start(List<PendingEvent> batch) {
        Verification v = open();
        for (PendingEvent e : batch) {
            v.add(e);
        }
        return v.close();
    }

    /** The verification of a batch to come, fed event by event on the task's thread. */
    Verification open() {
        return new Verification();
    }

    /** A slice of a batch, checked on the pool or by the thread that asks for the verdicts. */
    private final class Slice {
        final List<PendingEvent> events;
        final BadEventException[] verdicts;
        final FutureTask<Void> task;

        Slice(List<PendingEvent> events) {
            this.events = events;
            this.verdicts = new BadEventException[events.size()];
            this.task = new FutureTask<>(() -> check(events, verdicts, 0, events.size()), null);
        }
    }

    /**
     * One batch's check, used by one thread (the task's): {@link #add} while the batch fills, {@link
     * #close} when it is complete, then {@link #refused}, which waits until every slice has run.
     */
    final class Verification {
        private final boolean checks = policy.mode() != SignaturePolicy.Mode.NONE;
        private final List<Slice> slices = new ArrayList<>();
        private List<PendingEvent> filling = new ArrayList<>();
        private int size;
        private boolean closed;
        private boolean settled = true;
        private List<BoardWriter.Refused> refused;

        private Verification() {}

        /** The batch's next event; every {@link #SLICE} events go to the pool. */
        void add(PendingEvent e) {
            if (closed) {
                throw new IllegalStateException("an event added to a closed verification");
            }
            size++;
            if (!checks) {
                return;
            }
            filling.add(e);
            if (filling.size() >= SLICE && threads > 1) {
                send();
            }
        }

        private void send() {
            Slice slice = new Slice(filling);
            filling = new ArrayList<>();
            slices.add(slice);
            settled = false;
            pool().execute(slice.task);
        }

        /**
         * The batch is complete: its last events go to the pool, or, when the batch is short and
         * nothing was sent, are checked here and now (then {@link #settled}).
         */
        Verification close() {
            if (closed) {
                return this;
            }
            closed = true;
            if (filling.isEmpty()) {
                return this;
            }
            if (slices.isEmpty() && (filling.size() < SERIAL_BELOW || threads == 1)) {
                Slice here = new Slice(filling);
                here.task.run();
                slices.add(here);
            } else {
                send();
            }
            filling = List.of();
            return this;
        }

        /** The number of events added. */
        int size() {
            return size;
        }

        /** True when the verdicts were reached on the calling thread (no slice was sent to the pool). */
        boolean settled() {
            return settled;
        }

        /**
         * The refused events with reason and message, in batch order, once every slice has run: those
         * the pool has not started run on this thread, the others are waited for.
         */
        List<BoardWriter.Refused> refused() {
            if (!closed) {
                throw new IllegalStateException("verdicts asked for before the batch was complete");
            }
            if (refused != null) {
                return refused;
            }
            for (Slice slice : slices) {
                slice.task.run(); // a no-op when the pool has started or finished it
            }
            List<BoardWriter.Refused> out = new ArrayList<>();
            for (Slice slice : slices) {
                try {
                    slice.task.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while verifying a batch's signatures", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException(
                            "verifying a batch's signatures failed: " + e.getCause(), e.getCause());
                } catch (CancellationException e) {
                    throw new IllegalStateException("the verification of a batch's signatures was cancelled", e);
                }
                for (int i = 0; i < slice.verdicts.length; i++) {
                    BadEventException v = slice.verdicts[i];
                    if (v != null) {
                        out.add(new BoardWriter.Refused(slice.events.get(i), v.reason(), v.getMessage()));
                    }
                }
            }
            refused = List.copyOf(out);
            return refused;
        }

        /** Drops the slices the pool has not started (the batch is abandoned); running ones finish on their own. */
        void cancel() {
            for (Slice slice : slices) {
                slice.task.cancel(false);
            }
        }
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
