package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.store.PartitionLease;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projection of one partition (one Kafka Streams task), on its stream thread: reads each event,
 * checks it ({@link EventChecks}), batches the valid ones and hands each batch to the batch writer
 * ({@link BatchPipeline}), which writes it in one PostgreSQL transaction while the next is decoded.
 * A batch is handed over when it is full or has waited its longest ({@code batchMaxWait}); one that
 * has waited its longest while a write is in progress goes when that write ends, not waited for
 * (decision 84): under load a batch fills while the last one is written.
 *
 * <p>When the task starts it takes the partition ({@link PartitionTakeover}) and, if Kafka's
 * committed position is past PostgreSQL's stored offset, projects the gap first. Records below the
 * stored offset are skipped; a bad one among them is sent to the dead-letter topic again ({@link
 * ExactlyOnceDeadLetters}), since Kafka did not commit its position. docs/architecture.md, "Exactly
 * once", walks through the classes that carry each step.
 */
final class ProjectorProcessor implements Processor<String, byte[], String, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorProcessor.class);

    private final ProjectorSettings settings;
    private final Projection transactions;
    private final StatementCodec codec;
    private final ProjectorMetrics metrics;
    private final TopicLayout layout;
    private final DeadLetterPublisher publisher;
    private final SignatureVerifier signatures;
    private final KafkaPositions positions;
    private final PersonalOpening opening;
    private final List<PendingEvent> pending = new ArrayList<>();

    private ProcessorContext<String, byte[]> context;
    private int partition = -1;
    private EventChecks checks;
    private ExactlyOnceDeadLetters deadLetters;
    private PartitionTakeover takeover;
    private BatchPipeline pipeline;
    /**
     * The batch has waited its longest ({@code batchMaxWait}) while a write was in progress: it is
     * handed over as soon as that write ends (decision 84).
     */
    private boolean flushWhenWritten;

    private boolean ready;
    private long nextOffset;

    ProjectorProcessor(InstanceParts parts) {
        this.settings = parts.settings();
        this.transactions = parts.transactions();
        this.codec = parts.codec();
        this.metrics = parts.metrics();
        this.layout = parts.layout();
        this.publisher = parts.publisher();
        this.signatures = parts.signatures();
        this.positions = parts.positions();
        this.opening = parts.opening();
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        this.checks = new EventChecks(codec, layout, partition, opening);
        this.deadLetters =
                new ExactlyOnceDeadLetters(context, settings.topic(), partition, layout.deadLetterMaxBytes());
        this.takeover = new PartitionTakeover(settings, transactions, positions, partition);
        this.pipeline = new BatchPipeline("electoral-log-batch-writer-" + context.taskId(), partition);
        context.schedule(settings.batchMaxWait(), PunctuationType.WALL_CLOCK_TIME, now -> {
            ensureReady();
            if (pipeline.busy()) {
                // the batch has waited its longest, but the writer is busy: it goes when the writer is
                // free (decision 84), and the stream thread decodes on instead of waiting here
                flushWhenWritten = true;
                return;
            }
            flush();
        });
    }

    @Override
    public void process(Record<String, byte[]> record) {
        ensureReady();
        RecordMetadata md = context.recordMetadata().orElseThrow();
        long offset = md.offset();
        if (offset < nextOffset) {
            // already projected; re-send a bad one to the dead letters (its earlier copy was not committed)
            try {
                checks.validated(record.key(), record.value(), record.timestamp(), record.headers());
            } catch (BadEventException e) {
                deadLetters.forward(record, offset, e);
            }
            return;
        }
        accept(record.key(), record.value(), offset, record.timestamp(), record.headers(), true);
        nextOffset = offset + 1;
        if (pending.size() >= settings.batchMaxRecords() || (flushWhenWritten && !pipeline.busy())) {
            flush();
        }
    }

    /** Checks an event; adds a valid one to the batch, dead-letters a bad one (unless its dead letter was committed). */
    private void accept(
            String key, byte[] value, long offset, long timestamp, Headers headers, boolean forwardDeadLetter) {
        try {
            PersonalOpening.Opened st = checks.validated(key, value, timestamp, headers);
            pending.add(new PendingEvent(st, partition, offset, timestamp, key, value, headers));
        } catch (BadEventException e) {
            metrics.deadLetter(e.reason());
            if (forwardDeadLetter) {
                deadLetters.forward(new Record<>(key, value, timestamp, headers), offset, e);
            }
        }
    }

    /** Takes the partition and projects any gap between PostgreSQL's offset and Kafka's committed one. */
    private void ensureReady() {
        if (ready) {
            return;
        }
        BatchWriter writer = new BatchWriter(
                new CheckpointScheduler(settings.signer(), settings.checkpointEvery(), settings.postQuantumEvery()),
                settings.originPrefix(),
                settings.signatures());
        PartitionLease lease = takeover.take(writer.checkpoints());
        long stored = lease.nextOffset();
        metrics.projected(partition, stored);
        AtLeastOnceDeadLetters batchDeadLetters = new AtLeastOnceDeadLetters(
                publisher, metrics, settings.topic(), partition, layout.deadLetterMaxBytes());
        pipeline.start(new PartitionWrites(transactions, lease, writer, batchDeadLetters, metrics));
        nextOffset = stored;
        long committed = takeover.committedOffset(stored);
        if (committed > stored) {
            LOG.warn(
                    "partition {}: Kafka committed offset {} is past the projected offset {}: projecting the gap",
                    partition,
                    committed,
                    stored);
            takeover.readGap(stored, committed, this::acceptFromGap);
            nextOffset = Math.max(nextOffset, committed);
            flush();
            pipeline.await();
        }
        ready = true;
        LOG.info("partition {} taken at epoch {}, next offset {}", partition, lease.epoch(), nextOffset);
    }

    /** An event of the gap; its dead letter, if any, was committed with Kafka's offsets: not sent again. */
    private void acceptFromGap(ConsumerRecord<byte[], byte[]> r) {
        String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
        accept(key, r.value(), r.offset(), r.timestamp(), r.headers(), false);
        nextOffset = r.offset() + 1;
        if (pending.size() >= settings.batchMaxRecords()) {
            flush();
        }
    }

    /**
     * Hands the pending batch (or just the offset move) to the batch writer, once the last one is
     * written; with nothing to write, lets the writer sign the checkpoints that are due. The batch's
     * signatures are verified on the pool while it is written (decision 77, {@link RefusalIsolation}).
     */
    void flush() {
        flushWhenWritten = false;
        long stored = awaitWrite();
        if (pending.isEmpty() && nextOffset == stored) {
            if (pipeline.unsignedBoards()) {
                // a board written since its last checkpoint: the writer signs it once its interval passed
                long now = System.currentTimeMillis();
                pipeline.hand(w -> {
                    w.signCheckpoints(now);
                    return w.after();
                });
            }
            return;
        }
        List<PendingEvent> batch = List.copyOf(pending);
        pending.clear();
        long upTo = nextOffset;
        try {
            SignatureVerifier.Verification verification = signatures.start(batch);
            pipeline.hand(w -> {
                RefusalIsolation.write(w, batch, upTo, verification);
                return w.after();
            });
        } catch (RuntimeException e) {
            // the batch is not handed over: it is read again by the next owner, as after a failed write
            stopWriting();
            throw e;
        }
    }

    /** Waits for the write in progress; after a failed one, nothing more is written until the partition is taken again. */
    private long awaitWrite() {
        try {
            return pipeline.await();
        } catch (RuntimeException e) {
            stopWriting();
            throw e;
        }
    }

    private void stopWriting() {
        ready = false;
        pending.clear();
        pipeline.stop();
        nextOffset = pipeline.storedOffset();
    }

    @Override
    public void close() {
        if (ready) {
            try {
                flush();
                // a closing task signs what it wrote without waiting for the interval
                pipeline.hand(w -> {
                    w.signCheckpoints(Long.MAX_VALUE / 4);
                    return w.after();
                });
                awaitWrite();
            } catch (RuntimeException e) {
                LOG.warn(
                        "partition {}: final batch not written ({}); the next owner projects it from the topic",
                        partition,
                        e.getMessage());
            }
        }
        pipeline.shutdown();
    }
}
