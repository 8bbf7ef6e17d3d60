package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.electorallog.core.HeadsBoard;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.ProducerBuilder;
import org.electorallog.schemas.avro.CheckpointReason;
import org.electorallog.schemas.avro.LogCheckpoint;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.HeadLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head writer (docs/witnesses.md "One witness round for every board"): each round, enters on the
 * heads board ({@link HeadsBoard}) the latest signed checkpoint of every board whose checkpoint
 * changed since the last round, as a {@code LOG_CHECKPOINT} statement sent through the producer
 * path like any statement, so the heads board is projected, checkpointed, audited and replayed as
 * any board. Each entry's delivery ID names the board and size, and its content is fixed by them
 * (its time is the projection time of the board's last record at that size), so a round repeated
 * after a crash or by a new leader adds nothing (the projector drops the repeat as a duplicate).
 */
final class HeadWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeadWriter.class);
    static final String SENDER_NAME = "electoral-log head writer";

    private final ElectoralLogProducer producer;
    private final String originPrefix;
    /** Each board's size last entered and acknowledged by Kafka (empty at start: the first round enters every board once more). */
    private final Map<String, Long> entered = new ConcurrentHashMap<>();

    HeadWriter(ElectoralLogProducer producer, String originPrefix) {
        this.producer = producer;
        this.originPrefix = originPrefix;
    }

    /** A head writer sending through the projector's Kafka (its security settings and schema source), signing with {@code key}. */
    static HeadWriter create(ProjectorSettings settings, SigningKey key) {
        ProducerBuilder b = ElectoralLogProducer.builder(settings.bootstrap())
                .topic(settings.topic())
                .senderKey(key);
        settings.kafkaSecurity().forEach((k, v) -> b.kafka(k, String.valueOf(v)));
        if (settings.schemaRegistryUrl() != null) {
            b.schemaRegistry(settings.schemaRegistryUrl());
        }
        return new HeadWriter(b.build(), settings.originPrefix());
    }

    /**
     * One round: a heads entry for every board whose latest checkpoint is larger than the one last
     * entered, sent and acknowledged before it returns; a board whose entry is refused or not
     * acknowledged is reported and tried again next round, the others go on. Returns how many
     * Kafka acknowledged.
     */
    int round(Connection c) throws SQLException, InterruptedException {
        Map<HeadLinks.Latest, CompletableFuture<?>> sent = new java.util.LinkedHashMap<>();
        for (HeadLinks.Latest b : HeadLinks.latest(c, HeadsBoard.NAME)) {
            Long done = entered.get(b.board());
            if (done != null && done >= b.checkpoint().size()) {
                continue;
            }
            try {
                // the entry's time is its board's last record's, so a round repeated after a crash or by
                // a new leader sends the same statement again, a duplicate (issue 61)
                sent.put(b, producer.publish(statement(b.board(), b.checkpoint(), Math.max(1, b.lastCreatedMillis()))));
            } catch (RuntimeException e) {
                // one board's entry refused (a rule, a full buffer) must not keep the others out of the round
                notSent(b, e);
            }
        }
        producer.flush();
        int acknowledged = 0;
        for (Map.Entry<HeadLinks.Latest, CompletableFuture<?>> f : sent.entrySet()) {
            try {
                f.getValue().get();
                entered.merge(f.getKey().board(), f.getKey().checkpoint().size(), Math::max);
                acknowledged++;
            } catch (ExecutionException e) {
                notSent(f.getKey(), e.getCause()); // the next round sends it again, under the same delivery ID
            }
        }
        return acknowledged;
    }

    private static void notSent(HeadLinks.Latest b, Throwable why) {
        LOG.warn(
                "head writer: the heads entry of board {} at {} was not sent (the next round tries again): {}",
                b.board(),
                b.checkpoint().size(),
                why.toString());
    }

    /** The heads entry naming {@code board}'s checkpoint {@code cp}. */
    Statement statement(String board, CheckpointRow cp, long nowMillis) {
        return Statement.newBuilder()
                .setBoard(HeadsBoard.NAME)
                .setDeliveryId(HeadsBoard.deliveryId(board, cp.size()))
                .setKind(StatementKind.LOG_CHECKPOINT)
                .setStatementTimestamp(nowMillis)
                .setSenderName(SENDER_NAME)
                .setSenderPublicKey(ByteBuffer.allocate(0)) // the producer puts its sender key here
                .setBody(LogCheckpoint.newBuilder()
                        .setOrigin(originPrefix + board)
                        .setSize(cp.size())
                        .setRoot(ByteBuffer.wrap(cp.root()))
                        .setReason(CheckpointReason.PERIODIC)
                        .build())
                .build();
    }

    @Override
    public void close() {
        producer.close();
    }
}
