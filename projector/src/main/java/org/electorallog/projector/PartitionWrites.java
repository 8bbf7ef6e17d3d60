package org.electorallog.projector;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.store.PartitionLease;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;
import org.electorallog.store.Transactions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's writes while this task holds it (one {@link PartitionLease}), made on the batch
 * writer's thread alone ({@link BatchPipeline}): each is one PostgreSQL transaction (the store's
 * {@link Projection#decide}, which commits and rolls back; the work writes on its {@code LogWriter}) of a batch's events and the move of the stored
 * offset, by compare-and-set on the lease. A failure is classified ({@link BatchFailure}): an
 * infrastructure failure is retried with backoff, a refusal of the content is returned for {@link
 * RefusalIsolation}, a lost lease fences the task, damage stops it.
 *
 * <p>What it holds (the stored offset, the boards' cached trees, the writer's notes) is made anew
 * each time the partition is taken, and touched by no other thread.
 */
final class PartitionWrites {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionWrites.class);
    /** Infrastructure failures of one write are retried this many times (backoff 0.1 s doubling, about 6 s in all). */
    static final int INFRASTRUCTURE_RETRIES = 6;

    private final Projection transactions;
    private final PartitionLease lease;
    private final BatchWriter writer;
    private final AtLeastOnceDeadLetters deadLetters;
    private final ProjectorMetrics metrics;
    private final Map<String, BoardProjection> boards = new HashMap<>();
    private long storedOffset;

    PartitionWrites(
            Projection transactions,
            PartitionLease lease,
            BatchWriter writer,
            AtLeastOnceDeadLetters deadLetters,
            ProjectorMetrics metrics) {
        this.transactions = transactions;
        this.lease = lease;
        this.writer = writer;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.storedOffset = lease.nextOffset();
    }

    /** PostgreSQL's next offset of the partition, as this task last committed it. */
    long storedOffset() {
        return storedOffset;
    }

    /**
     * What a step of the batch writer leaves for the stream thread ({@link BatchPipeline}): the
     * stored offset, and whether a written board still waits for its checkpoint (so an idle task
     * hands over a signing step only then).
     */
    record After(long storedOffset, boolean unsignedBoards) {}

    After after() {
        return new After(storedOffset, writer.checkpoints().anyUnsigned());
    }

    AtLeastOnceDeadLetters deadLetters() {
        return deadLetters;
    }

    private int partition() {
        return lease.partition();
    }

    /**
     * What one {@link #write} did: committed ({@code refusal} null and signatures accepted), or rolled
     * back because PostgreSQL refused the content ({@code refusal}) or a signature was refused.
     */
    record Attempt(Throwable refusal, boolean signaturesRefused) {
        static final Attempt COMMITTED = new Attempt(null, false);

        boolean committed() {
            return refusal == null && !signaturesRefused;
        }
    }

    /**
     * One transaction: the events and the offset move to {@code upTo}. Returns {@link
     * Attempt#COMMITTED}, or the failure when PostgreSQL refused the content (after checking that
     * this task still owns the partition). With {@code verification}, the events' signatures are still
     * being verified: the transaction waits for them before it commits, and is rolled back when one
     * is refused. Infrastructure failures are retried with backoff, then thrown; a fenced or stopped
     * projection throws.
     */
    Attempt write(List<PendingEvent> events, long upTo, SignatureVerifier.Verification verification) {
        long backoff = 100;
        for (int attempt = 0; ; attempt++) {
            long t0 = System.nanoTime();
            Throwable failure;
            try {
                Transactions.Outcome<BatchWriter.Result> done = transactions.decide(c -> {
                    BatchWriter.Result r = writer.write(c, lease, storedOffset, upTo, events, boards);
                    if (verification != null && !verification.refused().isEmpty()) {
                        return Transactions.Decision.discard(r);
                    }
                    for (BoardWriter.Refused x : r.refused()) {
                        deadLetters.send(x.event(), x.reason(), x.message());
                    }
                    return Transactions.Decision.keep(r);
                });
                if (!done.committed()) {
                    forgetRolledBack();
                    metrics.rewritten();
                    return new Attempt(null, true);
                }
                long end = System.nanoTime();
                writer.committed();
                metrics.batch(done.value().written(), done.value().duplicates(), end - t0, done.commitNanos());
                metrics.committed(events, System.currentTimeMillis());
                storedOffset = upTo;
                metrics.projected(partition(), storedOffset);
                return Attempt.COMMITTED;
            } catch (RuntimeException e) {
                forgetRolledBack();
                if (writer.metStoredRepeat(e)) {
                    // a resent statement, written without a lookup: the same batch again, looking up first
                    metrics.rewrittenForRepeats();
                    LOG.info(
                            "partition {}: a batch at offsets {}..{} held a delivery ID already stored; written again with a lookup",
                            partition(),
                            events.isEmpty() ? upTo : events.get(0).offset(),
                            upTo - 1);
                    attempt--;
                    continue;
                }
                failure = e;
            }
            switch (BatchFailure.of(failure)) {
                case FENCED -> {
                    metrics.fenced();
                    throw failure instanceof FencedException f ? f : new FencedException(failure.getMessage());
                }
                case STOP -> {
                    // a zombie whose rows met the new owner's is fenced, not a sign of damage
                    requireOwnership();
                    throw failure instanceof ProjectionStoppedException s
                            ? s
                            : new ProjectionStoppedException("partition " + partition() + ": " + describe(failure)
                                    + "; no statement can cause this, only damage to the projection or a bug: run "
                                    + "`electoral-log audit`");
                }
                case DATA -> {
                    requireOwnership();
                    LOG.warn(
                            "partition {}: PostgreSQL refused {} event(s) at offsets {}..{} for their content ({}); isolating",
                            partition(),
                            events.size(),
                            events.isEmpty() ? upTo : events.get(0).offset(),
                            upTo - 1,
                            describe(failure));
                    if (events.isEmpty()) {
                        throw new IllegalStateException(
                                "partition " + partition() + ": an offset move was refused: " + describe(failure),
                                failure);
                    }
                    return new Attempt(failure, false);
                }
                case INFRASTRUCTURE -> {
                    if (attempt >= INFRASTRUCTURE_RETRIES) {
                        throw new IllegalStateException(
                                "batch of partition " + partition() + " failed " + (attempt + 1) + " times: "
                                        + describe(failure),
                                failure);
                    }
                    LOG.warn(
                            "partition {}: batch failed ({}); retrying in {} ms",
                            partition(),
                            describe(failure),
                            backoff);
                    pause(backoff);
                    backoff = Math.min(backoff * 2, 5_000);
                }
            }
        }
    }

    /**
     * Signs the checkpoints whose interval has passed at {@code nowMillis} (all of them with a
     * {@code nowMillis} far ahead, as a closing task does), in a transaction of their own.
     */
    void signCheckpoints(long nowMillis) {
        CheckpointScheduler checkpoints = writer.checkpoints();
        if (!checkpoints.due(nowMillis)) {
            return;
        }
        checkpoints.began();
        try {
            transactions.commit(c -> {
                checkpoints.signDue(c, nowMillis);
                return null;
            });
            checkpoints.committed();
        } catch (RuntimeException e) {
            checkpoints.rolledBack();
            throw new IllegalStateException("checkpoint of partition " + partition() + " failed: " + e.getMessage(), e);
        }
    }

    /** After a batch transaction rolled back: the cached boards' trees and the writer's notes had moved on. */
    private void forgetRolledBack() {
        boards.clear();
        writer.rolledBack();
    }

    /** A refused batch is only isolated by the partition's owner: a zombie that lost it is fenced instead. */
    private void requireOwnership() {
        boolean held;
        try {
            held = transactions.autocommit(c -> c.held(lease));
        } catch (ProjectionException e) {
            throw new IllegalStateException(
                    "cannot check the epoch of partition " + partition() + ": " + e.getMessage(), e);
        }
        if (!held) {
            metrics.fenced();
            throw new FencedException("partition " + lease.topic() + "-" + partition() + " is no longer ours at epoch "
                    + lease.epoch() + ": another task took it; batch rolled back");
        }
    }

    /** PostgreSQL's SQLSTATE and message (or the exception's), for logs and dead-letter reasons. */
    static String describe(Throwable t) {
        String server = ProjectionException.serverError(t);
        return server != null ? server : t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // backoff before retrying an infrastructure failure
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry a batch", e);
        }
    }
}
