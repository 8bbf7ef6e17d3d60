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
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.BoardName;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementKinds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projection of one partition (one Kafka Streams task): decode, validate, batch, and write each
 * batch to PostgreSQL in one transaction (see {@link BatchWriter}).
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
    private final Map<String, BoardProjection> boards = new HashMap<>();
    private final List<PendingEvent> pending = new ArrayList<>();
    private ProcessorContext<String, byte[]> context;
    private int partition = -1;
    private boolean ready;
    private long epoch;
    private long storedOffset;
    private long nextOffset;

    ProjectorProcessor(ProjectorSettings settings, DataSource db, StatementCodec codec, ProjectorMetrics metrics) {
        this.settings = settings;
        this.db = db;
        this.codec = codec;
        this.metrics = metrics;
        this.writer = new BatchWriter(settings.topic(), settings.signer(), settings.originPrefix(),
                org.electorallog.schemas.EmbeddedSchemaRegistry.instance(), settings.checkpointEvery());
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        context.schedule(settings.batchMaxWait(), PunctuationType.WALL_CLOCK_TIME, now -> {
            ensureReady();
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
                validated(record.key(), record.value());
            } catch (BadEventException e) {
                deadLetter(record, offset, e);
            }
            return;
        }
        accept(record.key(), record.value(), offset, record.timestamp(), record, true);
        nextOffset = offset + 1;
        if (pending.size() >= settings.batchMaxRecords()) {
            flush();
        }
    }

    /** Decodes and validates; adds a valid event to the batch or dead-letters a bad one. */
    private void accept(String key, byte[] value, long offset, long timestamp, Record<String, byte[]> record,
                        boolean forwardDeadLetter) {
        try {
            DecodedStatement st = validated(key, value);
            pending.add(new PendingEvent(st, partition, offset, timestamp));
        } catch (BadEventException e) {
            metrics.deadLetter(e.reason());
            if (forwardDeadLetter) {
                deadLetter(record, offset, e);
            }
        }
    }

    private DecodedStatement validated(String key, byte[] value) throws BadEventException {
        if (value == null) {
            throw new BadEventException(BadEventException.Reason.UNDECODABLE, "event has no value");
        }
        DecodedStatement st = codec.decode(value);
        if (!BoardName.isValid(st.board())) {
            throw new BadEventException(BadEventException.Reason.INVALID,
                    "board name '" + st.board() + "' must match [a-z0-9][a-z0-9._-]{0,63}");
        }
        if (!st.board().equals(key)) {
            throw new BadEventException(BadEventException.Reason.INVALID,
                    "Kafka key '" + key + "' differs from the statement's board '" + st.board() + "'");
        }
        if (st.deliveryId() == null || st.deliveryId().isEmpty() || st.deliveryId().length() > 128) {
            throw new BadEventException(BadEventException.Reason.INVALID, "delivery ID must be 1..128 characters");
        }
        if (StatementKinds.code(st.kind()) < 0) {
            throw new BadEventException(BadEventException.Reason.INVALID,
                    "statement kind " + st.kind() + " is unknown to this projector version");
        }
        if (st.senderPublicKey() == null || st.senderPublicKey().length != 32) {
            throw new BadEventException(BadEventException.Reason.INVALID, "sender public key must be 32 bytes");
        }
        if (st.canonicalBytes().length > CanonicalStatement.MAX_BYTES) {
            throw new BadEventException(BadEventException.Reason.OVERSIZED, "canonical statement is "
                    + st.canonicalBytes().length + " bytes, more than " + CanonicalStatement.MAX_BYTES);
        }
        settings.signatures().check(st);
        return st;
    }

    private void deadLetter(Record<String, byte[]> record, long offset, BadEventException e) {
        RecordHeaders h = new RecordHeaders();
        record.headers().forEach(h::add);
        h.add("dlq.reason", e.reason().name().getBytes(StandardCharsets.UTF_8));
        h.add("dlq.message", String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
        h.add("dlq.source.topic", settings.topic().getBytes(StandardCharsets.UTF_8));
        h.add("dlq.source.partition", String.valueOf(partition).getBytes(StandardCharsets.UTF_8));
        h.add("dlq.source.offset", String.valueOf(offset).getBytes(StandardCharsets.UTF_8));
        context.forward(new Record<>(record.key(), record.value(), record.timestamp(), h), DEAD_LETTER_SINK);
        LOG.warn("dead-lettered {}-{}@{}: {} {}", settings.topic(), partition, offset, e.reason(), e.getMessage());
    }

    /** Takes the partition and projects any gap between PostgreSQL's offset and Kafka's committed one. */
    private void ensureReady() {
        if (ready) {
            return;
        }
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            long[] taken = writer.acquire(c, partition);
            storedOffset = taken[0];
            epoch = taken[1];
            nextOffset = storedOffset;
            metrics.projected(partition, storedOffset);
            // a predecessor may have died between a batch and its checkpoint
            c.setAutoCommit(false);
            writer.signUncheckpointedBoards(c);
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot take partition " + partition + " in PostgreSQL: " + e.getMessage(), e);
        }
        boards.clear();
        long committed = committedOffset();
        if (committed > storedOffset) {
            LOG.warn("partition {}: Kafka committed offset {} is past the projected offset {}: projecting the gap",
                    partition, committed, storedOffset);
            repairGap(committed);
        }
        ready = true;
        LOG.info("partition {} taken at epoch {}, next offset {}", partition, epoch, nextOffset);
    }

    private long committedOffset() {
        Properties p = settings.kafkaClient();
        TopicPartition tp = new TopicPartition(settings.topic(), partition);
        try (Admin admin = Admin.create(p)) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                    Map.of(settings.applicationId(), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetAndMetadata(settings.applicationId()).get(30, TimeUnit.SECONDS);
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
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(settings.batchMaxRecords()));
        TopicPartition tp = new TopicPartition(settings.topic(), partition);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, storedOffset);
            while (consumer.position(tp) < until) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= until) {
                        break;
                    }
                    String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
                    // dead letters of the gap were committed with Kafka's offsets: do not send them again
                    accept(key, r.value(), r.offset(), r.timestamp(), null, false);
                    nextOffset = r.offset() + 1;
                    if (pending.size() >= settings.batchMaxRecords()) {
                        flush();
                    }
                }
            }
        }
        nextOffset = Math.max(nextOffset, until);
        flush();
    }

    /** Writes the pending batch (or just the offset move) in one transaction. */
    void flush() {
        if (pending.isEmpty() && nextOffset == storedOffset) {
            if (writer.checkpointsDue(System.currentTimeMillis())) {
                signDueCheckpoints();
            }
            return;
        }
        long t0 = System.nanoTime();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                BatchWriter.Result r = writer.write(c, partition, epoch, storedOffset, nextOffset, pending, boards);
                c.commit();
                metrics.batch(r.written(), r.duplicates(), System.nanoTime() - t0);
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                boards.clear();
                writer.rolledBack();
                if (e instanceof FencedException f) {
                    metrics.fenced();
                    ready = false;
                    pending.clear();
                    throw f;
                }
                throw new IllegalStateException("batch of partition " + partition + " failed: " + e.getMessage(), e);
            }
        } catch (SQLException e) {
            boards.clear();
            throw new IllegalStateException("no PostgreSQL connection for partition " + partition + ": " + e.getMessage(), e);
        }
        storedOffset = nextOffset;
        metrics.projected(partition, storedOffset);
        pending.clear();
    }

    private void signDueCheckpoints() {
        signCheckpoints(System.currentTimeMillis());
    }

    private void signCheckpoints(long nowMillis) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                writer.signDue(c, nowMillis);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                throw new IllegalStateException("checkpoint of partition " + partition + " failed: " + e.getMessage(), e);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("no PostgreSQL connection for partition " + partition + ": " + e.getMessage(), e);
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
                // a closing task signs what it wrote without waiting for the interval
                signCheckpoints(Long.MAX_VALUE / 4);
            } catch (RuntimeException e) {
                LOG.warn("partition {}: final batch not written ({}); the next owner projects it from the topic",
                        partition, e.getMessage());
            }
        }
    }
}
