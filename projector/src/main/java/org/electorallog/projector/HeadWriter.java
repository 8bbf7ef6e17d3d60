package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.ProducerBuilder;
import org.electorallog.schemas.avro.CheckpointReason;
import org.electorallog.schemas.avro.LogCheckpoint;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.HeadLinks;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head writer (docs/witnesses.md "One witness round for every board"): each round, enters on the
 * heads board ({@link HeadsBoard}) the latest signed checkpoint of every board whose checkpoint
 * changed since the last round, as a {@code LOG_CHECKPOINT} statement sent through the producer
 * path like any statement, so the heads board is projected, checkpointed, audited and replayed as
 * any board. Each entry's delivery ID names the board and size, and its content is fixed by them
 * (its time is the projection time of the board's last record at that size), so a round repeated
 * after a crash or by a new leader adds nothing (the projector drops the repeat as a duplicate). An
 * entry counts as entered once the heads board holds it, not when Kafka acknowledges it (issue 61
 * item 7): one still missing {@link #NOT_PROJECTED_AFTER} after its acknowledgement is reported and
 * sent again. Entries are signed with the log's key, the only one the heads board takes.
 */
final class HeadWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeadWriter.class);
    static final String SENDER_NAME = "electoral-log head writer";

    private final ElectoralLogProducer producer;
    private final String originPrefix;
    /**
     * How long an acknowledged entry may stay unprojected before it is reported and sent again (a
     * duplicate if the projector only lagged): an acknowledgement is not a record (issue 61 item 7).
     */
    static final Duration NOT_PROJECTED_AFTER = Duration.ofSeconds(60);

    /** An entry sent for a board's checkpoint at {@code size}: when Kafka acknowledged it, and whether it is projected. */
    private record Entered(long size, long ackedNanos, boolean projected) {}

    /**
     * Each board's entry last acknowledged by Kafka (empty at start: the first round enters every
     * board once more), until the heads board holds it.
     */
    private final Map<String, Entered> entered = new ConcurrentHashMap<>();

    private final Duration notProjectedAfter;

    HeadWriter(ElectoralLogProducer producer, String originPrefix, Duration notProjectedAfter) {
        this.producer = producer;
        this.originPrefix = originPrefix;
        this.notProjectedAfter = notProjectedAfter;
    }

    /**
     * A head writer sending through the projector's Kafka (its security settings and schema source),
     * signing with the log's key: the heads board takes entries from no other sender, and clients
     * check that its entries name the log's key (statement {@code LogStatements}, decision 130).
     */
    static HeadWriter create(ProjectorSettings settings) {
        return create(settings, NOT_PROJECTED_AFTER);
    }

    /** As {@link #create(ProjectorSettings)}, sending an unprojected entry again {@code notProjectedAfter} after its ack. */
    static HeadWriter create(ProjectorSettings settings, Duration notProjectedAfter) {
        ProducerBuilder b = ElectoralLogProducer.builder(settings.bootstrap())
                .topic(settings.topic())
                .senderKey(settings.signer().statementKey());
        settings.kafkaSecurity().forEach((k, v) -> b.kafka(k, String.valueOf(v)));
        if (settings.schemaRegistryUrl() != null) {
            b.schemaRegistry(settings.schemaRegistryUrl());
        }
        return new HeadWriter(b.build(), settings.originPrefix(), notProjectedAfter);
    }

    /**
     * One round: a heads entry for every board whose latest checkpoint is larger than the one last
     * entered, sent and acknowledged before it returns; a board whose entry is refused or not
     * acknowledged is reported and tried again next round, the others go on. Returns how many
     * Kafka acknowledged.
     */
    int round(Projection db) throws InterruptedException {
        Map<HeadLinks.Latest, CompletableFuture<?>> sent = new LinkedHashMap<>();
        for (HeadLinks.Latest b : db.statement(r -> r.latestHeads(HeadsBoard.NAME))) {
            Entered done = entered.get(b.board());
            if (done != null && done.size() >= b.checkpoint().size() && !dueAgain(db, b.board(), done)) {
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
                entered.merge(
                        f.getKey().board(),
                        new Entered(f.getKey().checkpoint().size(), System.nanoTime(), false),
                        (was, now) -> was.size() > now.size() ? was : now);
                acknowledged++;
            } catch (ExecutionException e) {
                notSent(f.getKey(), e.getCause()); // the next round sends it again, under the same delivery ID
            }
        }
        return acknowledged;
    }

    /**
     * Whether the entry {@code done} of {@code board} must be sent again: not while the heads board
     * holds it (then it is never looked up again) or while it is younger than {@code
     * notProjectedAfter}; past that it was refused or the projector lags, which is reported.
     */
    private boolean dueAgain(Projection db, String board, Entered done) {
        if (done.projected()) {
            return false;
        }
        if (db.statement(r -> r.delivery(HeadsBoard.NAME, HeadsBoard.deliveryId(board, done.size())))
                .isPresent()) {
            entered.replace(board, done, new Entered(done.size(), done.ackedNanos(), true));
            return false;
        }
        if (System.nanoTime() - done.ackedNanos() < notProjectedAfter.toNanos()) {
            return false;
        }
        LOG.warn(
                "head writer: the heads entry of board {} at {} was acknowledged {} s ago and is not on the heads board: "
                        + "sent again (`electoral-log dead-letters --board {}` shows a refusal)",
                board,
                done.size(),
                (System.nanoTime() - done.ackedNanos()) / 1_000_000_000L,
                HeadsBoard.NAME);
        return true;
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
