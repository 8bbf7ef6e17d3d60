package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.electorallog.core.Hashes;
import org.electorallog.store.LogWriter;
import org.electorallog.store.PartitionLease;

/**
 * Writes one batch of one partition in ONE PostgreSQL transaction: the writer schemas, each board's
 * share ({@link BoardWriter}), the checkpoints that are due ({@link CheckpointScheduler}), and the
 * partition's next offset by compare-and-set on the task's {@link PartitionLease}.
 *
 * <p>On any failure the transaction is rolled back and the caller must drop its cached
 * {@link BoardProjection}s, whose trees were already advanced, and call {@link #rolledBack}.
 */
final class BatchWriter {
    private final BoardWriter boardWriter;
    private final CheckpointScheduler checkpoints;
    private final Set<Integer> schemasRecorded = new HashSet<>();

    BatchWriter(CheckpointScheduler checkpoints, String originPrefix, SignaturePolicy policy) {
        this.boardWriter = new BoardWriter(originPrefix, policy);
        this.checkpoints = checkpoints;
    }

    /** What a batch did; {@code refused} events are to be dead-lettered before the batch commits. */
    record Result(int written, int duplicates, Set<String> boards, List<BoardWriter.Refused> refused) {}

    /** The checkpoints of this task's boards. */
    CheckpointScheduler checkpoints() {
        return checkpoints;
    }

    /**
     * Writes {@code events} (offset order) and moves the lease's partition from {@code expectedOffset}
     * to {@code nextOffset}; {@link FencedException} when another task took the partition.
     */
    Result write(
            LogWriter c,
            PartitionLease lease,
            long expectedOffset,
            long nextOffset,
            List<PendingEvent> events,
            Map<String, BoardProjection> boards) {
        Map<String, List<PendingEvent>> byBoard = new LinkedHashMap<>();
        for (PendingEvent e : events) {
            byBoard.computeIfAbsent(e.statement().board(), b -> new ArrayList<>())
                    .add(e);
        }
        checkpoints.began();
        boardWriter.batchBegan();
        recordSchemas(c, events);
        int written = 0;
        int duplicates = 0;
        List<BoardWriter.Refused> refused = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (Map.Entry<String, List<PendingEvent>> entry : byBoard.entrySet()) {
            BoardProjection board = boards.get(entry.getKey());
            if (board == null) {
                board = boardWriter.load(c, entry.getKey()).orElse(null);
            }
            BoardWriter.Written w = boardWriter.write(c, entry.getKey(), board, entry.getValue());
            if (w.board() != null) {
                // a board is created only by a statement it keeps: refused ones never take a board ID
                boards.put(entry.getKey(), w.board());
            }
            written += w.written();
            duplicates += w.duplicates();
            refused.addAll(w.refused());
            if (w.written() > 0) {
                checkpoints.written(entry.getKey(), now);
            }
            if (w.sealedNow()) {
                checkpoints.sealed(entry.getKey());
            }
        }
        checkpoints.signDue(c, now);
        if (!c.advance(lease, expectedOffset, nextOffset)) {
            throw new FencedException("partition " + lease.topic() + "-" + lease.partition()
                    + " is no longer ours at epoch " + lease.epoch() + " and offset " + expectedOffset
                    + ": another task took it; batch rolled back");
        }
        return new Result(written, duplicates, byBoard.keySet(), refused);
    }

    private void recordSchemas(LogWriter c, List<PendingEvent> events) {
        for (PendingEvent e : events) {
            int id = e.statement().schemaId();
            if (schemasRecorded.contains(id)) {
                continue;
            }
            Schema schema = e.statement().writerSchema(); // the producer's, whatever registry the ID is from
            c.recordWriterSchema(
                    id,
                    Hashes.sha256(SchemaNormalization.toParsingForm(schema).getBytes(StandardCharsets.UTF_8)),
                    schema.toString());
            schemasRecorded.add(id);
        }
    }

    /**
     * Whether a failed batch is to be written again because it met a stored delivery ID without
     * looking it up ({@link BoardWriter#metStoredRepeat}); it then looks the IDs up.
     */
    boolean metStoredRepeat(Throwable failure) {
        return boardWriter.metStoredRepeat(failure);
    }

    /** After the batch transaction committed. */
    void committed() {
        checkpoints.committed();
    }

    /**
     * After a rollback: forget which writer schemas were recorded, since that may be undone, and the
     * checkpoints the batch signed.
     */
    void rolledBack() {
        schemasRecorded.clear();
        checkpoints.rolledBack();
    }
}
