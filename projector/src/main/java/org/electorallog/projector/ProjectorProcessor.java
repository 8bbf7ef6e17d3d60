package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementRules;
import org.electorallog.store.PartitionLease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projection of one partition (one Kafka Streams task): decode, validate, batch, and write each
 * batch to PostgreSQL in one transaction (see {@link BatchWriter}). The stream thread decodes and
 * batches; a thread of the task's own writes the batches, one at a time and in order, so that the
 * next batch is decoded while the last one is written (decision 78). The stream thread waits for the
 * write in progress before it hands over the next batch or reads what a write changes, but a batch
 * that has waited its longest while a write is in progress is handed over when that write ends, not
 * waited for (decision 84): under load a batch fills while the last one is written.
 *
 * <p>PostgreSQL's stored next offset is the truth (BRIEF section 3, invariant 1). When the task
 * starts it takes the partition (bumping its epoch), and if Kafka's committed position is past the
 * stored offset, it first projects the gap by reading the topic with a plain consumer. Records below
 * the stored offset are skipped; a bad one among them is sent to the dead-letter topic again, since
 * Kafka did not commit its position (so the earlier dead letter was aborted with its transaction).
 */
final class ProjectorProcessor implements Processor<String, byte[], String, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorProcessor.class);
    static final String DEAD_LETTER_SINK = "dead-letters";

    private final ProjectorSettings settings;
    private final DataSource db;
    private final StatementCodec codec;
    private final BatchWriter writer;
    private final ProjectorMetrics metrics;
    private final TopicLayout layout;
    private final DeadLetterPublisher publisher;
    private final SignatureVerifier signatures;
    private final Map<String, BoardProjection> boards = new HashMap<>();
    private final List<PendingEvent> pending = new ArrayList<>();
    /**
     * The thread that writes this task's batches, one at a time, while the stream thread decodes the
     * next (decision 78), and the batch it is writing (null when none).
     */
    private ExecutorService batchWriter;

    private Future<?> writing;
    /**
     * The batch has waited its longest ({@code batchMaxWait}) while a write was in progress: it is
     * handed over as soon as that write ends (decision 84).
     */
    private boolean flushWhenWritten;

    private ProcessorContext<String, byte[]> context;
    private int partition = -1;
    private boolean ready;
    private PartitionLease lease;
    private long storedOffset;
    private long nextOffset;

    /** Infrastructure failures of one write are retried this many times (backoff 0.1 s doubling, about 6 s in all). */
    static final int INFRASTRUCTURE_RETRIES = 6;

    ProjectorProcessor(
            ProjectorSettings settings,
            DataSource db,
            StatementCodec codec,
            ProjectorMetrics metrics,
            TopicLayout layout,
            DeadLetterPublisher publisher,
            SignatureVerifier signatures) {
        this.settings = settings;
        this.signatures = signatures;
        this.db = db;
        this.codec = codec;
        this.metrics = metrics;
        this.layout = layout;
        this.publisher = publisher;
        this.writer = new BatchWriter(
                settings.signer(),
                settings.originPrefix(),
                codec.registry(),
                settings.checkpointEvery(),
                settings.signatures());
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        String name = "electoral-log-batch-writer-" + context.taskId();
        ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        // an idle task's thread ends (and a task Kafka Streams drops without closing leaves none)
        one.allowCoreThreadTimeOut(true);
        this.batchWriter = one;
        context.schedule(settings.batchMaxWait(), PunctuationType.WALL_CLOCK_TIME, now -> {
            ensureReady();
            if (writeInProgress()) {
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
                validated(record.key(), record.value(), record.timestamp());
            } catch (BadEventException e) {
                deadLetter(record, offset, e);
            }
            return;
        }
        accept(record.key(), record.value(), offset, record.timestamp(), record.headers(), true);
        nextOffset = offset + 1;
        if (pending.size() >= settings.batchMaxRecords() || (flushWhenWritten && !writeInProgress())) {
            flush();
        }
    }

    /** Whether the batch writer is still writing the last batch handed to it. */
    private boolean writeInProgress() {
        return writing != null && !writing.isDone();
    }

    /** Decodes and validates; adds a valid event to the batch or dead-letters a bad one. */
    private void accept(
            String key, byte[] value, long offset, long timestamp, Headers headers, boolean forwardDeadLetter) {
        try {
            DecodedStatement st = validated(key, value, timestamp);
            pending.add(new PendingEvent(st, partition, offset, timestamp, key, value, headers));
        } catch (BadEventException e) {
            metrics.deadLetter(e.reason());
            if (forwardDeadLetter) {
                deadLetter(new Record<>(key, value, timestamp, headers), offset, e);
            }
        }
    }

    /**
     * The checks of one event: {@link StatementRules} (inside decoding), then what only the projector
     * knows: the Kafka key and partition and the record timestamp. Signatures are checked later, a
     * whole batch at once ({@link #withoutBadSignatures}).
     */
    private DecodedStatement validated(String key, byte[] value, long timestamp) throws BadEventException {
        if (value == null) {
            throw new BadEventException(BadEventException.Reason.UNDECODABLE, "event has no value");
        }
        DecodedStatement st = codec.decode(value);
        if (!st.board().equals(key)) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID,
                    "Kafka key '" + StatementRules.printable(key) + "' differs from the statement's board '"
                            + st.board() + "'");
        }
        int home = layout.partitionOf(st.board());
        if (home != partition) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID,
                    "board " + st.board() + " belongs to partition "
                            + home + " of " + layout.partitions()
                            + " (Kafka's default partitioner on the key); this event "
                            + "arrived on partition " + partition + ", where it would break the board's order");
        }
        java.util.Optional<StatementRules.Violation> time = StatementRules.checkRecordTimestamp(timestamp);
        if (time.isPresent()) {
            throw time.get().exception();
        }
        return st;
    }

    private DeadLetter.Source source(long offset) {
        return new DeadLetter.Source(settings.topic(), partition, offset);
    }

    /** Forwards a dead letter in Kafka Streams' transaction (found while the event is processed). */
    private void deadLetter(Record<String, byte[]> record, long offset, BadEventException e) {
        DeadLetter d = DeadLetter.of(
                record.key(),
                record.value(),
                record.timestamp(),
                record.headers(),
                source(offset),
                e.reason(),
                e.getMessage(),
                layout.deadLetterMaxBytes(),
                System.currentTimeMillis());
        context.forward(new Record<>(d.key(), d.value(), d.timestamp(), d.headers()), DEAD_LETTER_SINK);
        LOG.warn("dead-lettered {}-{}@{}: {} {}", settings.topic(), partition, offset, e.reason(), e.getMessage());
    }

    /** Sends a dead letter found while a batch is written, before the batch commits (see {@link DeadLetterPublisher}). */
    private void deadLetter(PendingEvent e, BadEventException.Reason reason, String message) {
        publisher.publish(DeadLetter.of(
                e.key(),
                e.value(),
                e.kafkaTimestamp(),
                e.headers(),
                source(e.offset()),
                reason,
                message,
                layout.deadLetterMaxBytes(),
                System.currentTimeMillis()));
        metrics.deadLetter(reason);
        LOG.warn("dead-lettered {}-{}@{}: {} {}", settings.topic(), partition, e.offset(), reason, message);
    }

    /** Takes the partition and projects any gap between PostgreSQL's offset and Kafka's committed one. */
    private void ensureReady() {
        if (ready) {
            return;
        }
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            lease = PartitionLease.acquire(c, settings.topic(), partition);
            storedOffset = lease.nextOffset();
            nextOffset = storedOffset;
            metrics.projected(partition, storedOffset);
            // a predecessor may have died between a batch and its checkpoint
            c.setAutoCommit(false);
            writer.checkpoints().signUncheckpointed(c);
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot take partition " + partition + " in PostgreSQL: " + e.getMessage(), e);
        }
        boards.clear();
        long committed;
        try (Admin admin = Admin.create(settings.kafkaClient())) {
            requireUndeleted(admin);
            committed = committedOffset(admin);
        }
        if (committed > storedOffset) {
            LOG.warn(
                    "partition {}: Kafka committed offset {} is past the projected offset {}: projecting the gap",
                    partition,
                    committed,
                    storedOffset);
            repairGap(committed);
        }
        ready = true;
        LOG.info("partition {} taken at epoch {}, next offset {}", partition, lease.epoch(), nextOffset);
    }

    /**
     * Stops when Kafka no longer has the events after the stored offset (retention or
     * {@code deleteRecords} removed them before they were projected): projecting on from the log
     * start would skip them silently.
     */
    private void requireUndeleted(Admin admin) {
        TopicPartition tp = new TopicPartition(settings.topic(), partition);
        long logStart;
        try {
            logStart = admin.listOffsets(Map.of(tp, OffsetSpec.earliest()))
                    .partitionResult(tp)
                    .get(30, TimeUnit.SECONDS)
                    .offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the log start of " + tp, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the log start offset of " + tp + ": " + e.getMessage(), e);
        }
        if (logStart > storedOffset) {
            throw deleted(tp, logStart);
        }
    }

    private ProjectionStoppedException deleted(TopicPartition tp, long logStart) {
        return new ProjectionStoppedException("partition " + tp + ": offsets " + storedOffset + " to " + (logStart - 1)
                + " were deleted from Kafka (retention or deleteRecords) before they were projected; the projector stops "
                + "rather than skip them. Kafka is the source of truth: restore those events to the topic (from a "
                + "backup or mirror) or restore the database from a backup taken before the deletion, and set the "
                + "events topic's retention.ms and retention.bytes to -1 (docs/operations in docs/architecture.md, "
                + "\"Events deleted before projection\")");
    }

    private long committedOffset(Admin admin) {
        TopicPartition tp = new TopicPartition(settings.topic(), partition);
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(Map.of(
                            settings.applicationId(), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetAndMetadata(settings.applicationId())
                    .get(30, TimeUnit.SECONDS);
            OffsetAndMetadata om = offsets.get(tp);
            return om == null ? -1 : om.offset();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the committed offset of " + tp + ": " + e.getMessage(), e);
        }
    }

    private void repairGap(long until) {
        Properties p = settings.kafkaClient();
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // never jump: an offset that is gone is an error, not a reason to start elsewhere
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(settings.batchMaxRecords()));
        TopicPartition tp = new TopicPartition(settings.topic(), partition);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, storedOffset);
            while (consumer.position(tp) < until) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= until) {
                        break;
                    }
                    String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
                    // dead letters of the gap were committed with Kafka's offsets: do not send them again
                    accept(key, r.value(), r.offset(), r.timestamp(), r.headers(), false);
                    nextOffset = r.offset() + 1;
                    if (pending.size() >= settings.batchMaxRecords()) {
                        flush();
                    }
                }
            }
        } catch (OffsetOutOfRangeException e) {
            Long logStart = e.offsetOutOfRangePartitions().get(tp);
            throw deleted(tp, logStart == null ? storedOffset + 1 : Math.max(storedOffset + 1, logStart));
        }
        nextOffset = Math.max(nextOffset, until);
        flush();
        awaitWrite();
    }

    /**
     * Writes the pending batch (or just the offset move) in one transaction. When PostgreSQL refuses
     * the batch for its content, the batch is split to isolate the event(s) at fault (see
     * {@link #project}); infrastructure failures are retried; a fenced task stops writing.
     *
     * <p>A batch's signatures are verified on the pool while this thread writes it, and its
     * transaction commits only once every signature verified (decision 77): the two costliest steps
     * of a signed batch overlap instead of following each other. When a signature is refused, that
     * write is rolled back and the batch written again without the refused events, after their dead
     * letters, exactly as when the signatures were checked first.
     */
    void flush() {
        flushWhenWritten = false;
        awaitWrite();
        if (pending.isEmpty() && nextOffset == storedOffset) {
            if (writer.checkpoints().due(System.currentTimeMillis())) {
                signDueCheckpoints();
            }
            return;
        }
        List<PendingEvent> batch = List.copyOf(pending);
        pending.clear();
        long upTo = nextOffset;
        try {
            SignatureVerifier.Verification verification = signatures.start(batch);
            writing = batchWriter.submit(() -> writeBatch(batch, upTo, verification));
        } catch (RuntimeException e) {
            // the batch is not handed over: it is read again by the next owner, as after a failed write
            stopWriting();
            throw e;
        }
    }

    /**
     * On the batch writer's thread: the batch, its signatures verified (or still being verified:
     * the transaction waits for them), and the offset move to {@code upTo}.
     */
    private void writeBatch(List<PendingEvent> batch, long upTo, SignatureVerifier.Verification verification) {
        try {
            if (!verification.settled() && write(batch, upTo, verification).committed()) {
                return;
            }
            // settled up front, or the overlapped write was rolled back (a refused signature or a
            // refusal by PostgreSQL): the batch less its refused signatures, isolating what PostgreSQL refuses
            project(withoutBadSignatures(batch, verification.refused()), upTo);
        } catch (RuntimeException e) {
            verification.cancel();
            throw e;
        }
    }

    /**
     * Waits until the batch being written is committed (or given up), on the stream thread, before
     * anything that reads what a write changes (the stored offset, the boards, the checkpoints) or
     * writes again. A failed write is thrown here: what was not committed, that batch and the events
     * accepted since, is read again from Kafka by the next owner of the partition (a replaced thread
     * or another instance), which starts at PostgreSQL's stored offset; this task must not write
     * again, least of all an offset move past the lost batch.
     */
    private void awaitWrite() {
        if (writing == null) {
            return;
        }
        Future<?> w = writing;
        writing = null;
        try {
            w.get();
        } catch (ExecutionException e) {
            stopWriting();
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("partition " + partition + ": writing a batch failed: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopWriting();
            throw new IllegalStateException("partition " + partition + ": interrupted while a batch was written", e);
        }
    }

    /** After a failed write: nothing more is written until the partition is taken again. */
    private void stopWriting() {
        ready = false;
        pending.clear();
        nextOffset = storedOffset;
    }

    /**
     * The batch less the events whose signatures the policy refuses ({@link SignatureVerifier}); those
     * are dead-lettered by the {@link DeadLetterPublisher} (sent and acknowledged before the
     * transaction that moves the offset past them commits), like every dead letter found at batch
     * time: never lost, repeated if the process dies before that commit (decision 61).
     */
    private List<PendingEvent> withoutBadSignatures(List<PendingEvent> batch, List<BoardWriter.Refused> refused) {
        if (refused.isEmpty()) {
            return batch;
        }
        java.util.Set<Long> bad = new java.util.HashSet<>();
        for (BoardWriter.Refused r : refused) {
            deadLetter(r.event(), r.reason(), r.message());
            bad.add(r.event().offset());
        }
        return batch.stream().filter(e -> !bad.contains(e.offset())).toList();
    }

    /**
     * Projects {@code events} (in offset order, all at or after the stored offset) and moves the
     * stored offset to {@code upTo}. If PostgreSQL refuses them for their content, the list is split
     * in two and each half is projected on its own (the first half up to the first offset of the
     * second), down to single events: a single event that is still refused is dead-lettered with
     * PostgreSQL's error and the offset moves past it. Every step is one transaction with the same
     * epoch and offset compare-and-set as a normal batch, committed in offset order, so exactly-once
     * holds: the stored offset only ever moves past events that are stored or dead-lettered.
     */
    private void project(List<PendingEvent> events, long upTo) {
        Throwable refusal = write(events, upTo, null).refusal();
        if (refusal == null) {
            return;
        }
        if (events.size() == 1) {
            PendingEvent e = events.get(0);
            deadLetter(e, BadEventException.Reason.REFUSED, "PostgreSQL refused the event: " + describe(refusal));
            Throwable again = write(List.of(), upTo, null).refusal();
            if (again != null) {
                throw new IllegalStateException(
                        "partition " + partition + ": moving the offset past refused event " + e.offset() + " failed: "
                                + again.getMessage(),
                        again);
            }
            return;
        }
        int mid = events.size() / 2;
        project(events.subList(0, mid), events.get(mid).offset());
        project(events.subList(mid, events.size()), upTo);
    }

    /**
     * What one {@link #write} did: committed ({@code refusal} null and signatures accepted), or rolled
     * back because PostgreSQL refused the content ({@code refusal}) or a signature was refused.
     */
    private record Attempt(Throwable refusal, boolean signaturesRefused) {
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
    private Attempt write(List<PendingEvent> events, long upTo, SignatureVerifier.Verification verification) {
        long backoff = 100;
        for (int attempt = 0; ; attempt++) {
            long t0 = System.nanoTime();
            Throwable failure;
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                try {
                    BatchWriter.Result r = writer.write(c, lease, storedOffset, upTo, events, boards);
                    if (verification != null && !verification.refused().isEmpty()) {
                        rollback(c);
                        forgetRolledBack();
                        metrics.rewritten();
                        return new Attempt(null, true);
                    }
                    for (BoardWriter.Refused x : r.refused()) {
                        deadLetter(x.event(), x.reason(), x.message());
                    }
                    long committing = System.nanoTime();
                    c.commit();
                    long end = System.nanoTime();
                    writer.committed();
                    metrics.batch(r.written(), r.duplicates(), end - t0, end - committing);
                    metrics.committed(events, System.currentTimeMillis());
                    storedOffset = upTo;
                    metrics.projected(partition, storedOffset);
                    return Attempt.COMMITTED;
                } catch (SQLException | RuntimeException e) {
                    rollback(c);
                    forgetRolledBack();
                    if (writer.metStoredRepeat(e)) {
                        // a resent statement, written without a lookup: the same batch again, looking up first
                        metrics.rewrittenForRepeats();
                        LOG.info(
                                "partition {}: a batch at offsets {}..{} held a delivery ID already stored; written again with a lookup",
                                partition,
                                events.isEmpty() ? upTo : events.get(0).offset(),
                                upTo - 1);
                        attempt--;
                        continue;
                    }
                    failure = e;
                }
            } catch (SQLException e) {
                forgetRolledBack();
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
                            : new ProjectionStoppedException("partition " + partition + ": " + describe(failure)
                                    + "; no statement can cause this, only damage to the projection or a bug: run "
                                    + "`electoral-log audit`");
                }
                case DATA -> {
                    requireOwnership();
                    LOG.warn(
                            "partition {}: PostgreSQL refused {} event(s) at offsets {}..{} for their content ({}); isolating",
                            partition,
                            events.size(),
                            events.isEmpty() ? upTo : events.get(0).offset(),
                            upTo - 1,
                            describe(failure));
                    if (events.isEmpty()) {
                        throw new IllegalStateException(
                                "partition " + partition + ": an offset move was refused: " + describe(failure),
                                failure);
                    }
                    return new Attempt(failure, false);
                }
                case INFRASTRUCTURE -> {
                    if (attempt >= INFRASTRUCTURE_RETRIES) {
                        throw new IllegalStateException(
                                "batch of partition " + partition + " failed " + (attempt + 1) + " times: "
                                        + describe(failure),
                                failure);
                    }
                    LOG.warn(
                            "partition {}: batch failed ({}); retrying in {} ms",
                            partition,
                            describe(failure),
                            backoff);
                    pause(backoff);
                    backoff = Math.min(backoff * 2, 5_000);
                }
            }
        }
    }

    /** After a batch transaction rolled back: the cached boards' trees and the writer's notes had moved on. */
    private void forgetRolledBack() {
        boards.clear();
        writer.rolledBack();
    }

    /** A refused batch is only isolated by the partition's owner: a zombie that lost it is fenced instead. */
    private void requireOwnership() {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            if (!lease.held(c)) {
                metrics.fenced();
                throw new FencedException("partition " + settings.topic() + "-" + partition
                        + " is no longer ours at epoch " + lease.epoch() + ": another task took it; batch rolled back");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot check the epoch of partition " + partition + ": " + e.getMessage(), e);
        }
    }

    /** PostgreSQL's SQLSTATE and message (or the exception's), for logs and dead-letter reasons. */
    static String describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException e && e.getSQLState() != null) {
                return "SQLSTATE " + e.getSQLState() + ": " + e.getMessage();
            }
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // backoff before retrying an infrastructure failure
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry a batch", e);
        }
    }

    private void signDueCheckpoints() {
        signCheckpoints(System.currentTimeMillis());
    }

    private void signCheckpoints(long nowMillis) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                writer.checkpoints().signDue(c, nowMillis);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                throw new IllegalStateException(
                        "checkpoint of partition " + partition + " failed: " + e.getMessage(), e);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "no PostgreSQL connection for partition " + partition + ": " + e.getMessage(), e);
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            LOG.warn("rollback failed: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        if (ready) {
            try {
                flush();
                awaitWrite();
                // a closing task signs what it wrote without waiting for the interval
                signCheckpoints(Long.MAX_VALUE / 4);
            } catch (RuntimeException e) {
                LOG.warn(
                        "partition {}: final batch not written ({}); the next owner projects it from the topic",
                        partition,
                        e.getMessage());
            }
        }
        batchWriter.shutdown();
    }
}
