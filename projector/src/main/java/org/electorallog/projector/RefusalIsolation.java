package org.electorallog.projector;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.electorallog.schemas.BadEventException;

/**
 * Writes a batch so that the events refused in it, and only those, are dead-lettered (BRIEF section
 * 3: one bad statement never stops a board), on the batch writer's thread:
 * <ul>
 *   <li>signatures the policy refuses ({@link SignatureVerifier}, verified on the pool while the
 *       batch is written, decision 77): the overlapped write is rolled back and the batch written
 *       again without them, after their dead letters;</li>
 *   <li>content PostgreSQL refuses ({@link BatchFailure#DATA}): the batch is split in two and each
 *       half written on its own, down to single events; one still refused is dead-lettered with
 *       PostgreSQL's error and the offset moves past it.</li>
 * </ul>
 * Every step is one transaction with the same epoch and offset compare-and-set as a normal batch
 * ({@link PartitionWrites}), committed in offset order, so exactly-once holds: the stored offset
 * only ever moves past events that are stored or dead-lettered. Dead letters go by {@link
 * AtLeastOnceDeadLetters}, acknowledged before the transaction that moves past them commits.
 */
final class RefusalIsolation {
    private RefusalIsolation() {}

    /**
     * The batch, its signatures verified (or still being verified: the transaction waits for them),
     * and the offset move to {@code upTo}.
     */
    static void write(
            PartitionWrites writes, List<PendingEvent> batch, long upTo, SignatureVerifier.Verification verification) {
        try {
            if (!verification.settled()
                    && writes.write(batch, upTo, verification).committed()) {
                return;
            }
            // settled up front, or the overlapped write was rolled back (a refused signature or a
            // refusal by PostgreSQL): the batch less its refused signatures, isolating what PostgreSQL refuses
            project(writes, withoutBadSignatures(writes, batch, verification.refused()), upTo);
        } catch (RuntimeException e) {
            verification.cancel();
            throw e;
        }
    }

    /** The batch less the events whose signatures the policy refuses, each dead-lettered. */
    private static List<PendingEvent> withoutBadSignatures(
            PartitionWrites writes, List<PendingEvent> batch, List<BoardWriter.Refused> refused) {
        if (refused.isEmpty()) {
            return batch;
        }
        Set<Long> bad = new HashSet<>();
        for (BoardWriter.Refused r : refused) {
            writes.deadLetters().send(r.event(), r.reason(), r.message());
            bad.add(r.event().offset());
        }
        return batch.stream().filter(e -> !bad.contains(e.offset())).toList();
    }

    /**
     * Projects {@code events} (in offset order, all at or after the stored offset) and moves the
     * stored offset to {@code upTo}, splitting what PostgreSQL refuses (the first half up to the
     * first offset of the second) down to single events.
     */
    private static void project(PartitionWrites writes, List<PendingEvent> events, long upTo) {
        Throwable refusal = writes.write(events, upTo, null).refusal();
        if (refusal == null) {
            return;
        }
        if (events.size() == 1) {
            PendingEvent e = events.get(0);
            writes.deadLetters()
                    .send(
                            e,
                            BadEventException.Reason.REFUSED,
                            "PostgreSQL refused the event: " + PartitionWrites.describe(refusal));
            Throwable again = writes.write(List.of(), upTo, null).refusal();
            if (again != null) {
                throw new IllegalStateException(
                        "partition " + e.partition() + ": moving the offset past refused event " + e.offset()
                                + " failed: " + again.getMessage(),
                        again);
            }
            return;
        }
        int mid = events.size() / 2;
        project(writes, events.subList(0, mid), events.get(mid).offset());
        project(writes, events.subList(mid, events.size()), upTo);
    }
}
