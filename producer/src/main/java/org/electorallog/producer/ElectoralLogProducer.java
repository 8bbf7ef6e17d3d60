package org.electorallog.producer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementRules;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.PersonalData;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.Entry;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.SealingKeys;

/**
 * The library producers embed to publish statements. Each statement is validated before anything
 * is sent, encoded in the Confluent wire format and sent with an idempotent Kafka producer
 * ({@code enable.idempotence=true}, {@code acks=all}) keyed by board, so one board stays in one
 * partition in order. {@link #publish} never drops: it returns a future that completes with the
 * statement's partition, offset and leaf hash (the voter's receipt) once Kafka has acknowledged it,
 * or fails with the reason.
 *
 * <p>{@code publish} never blocks its caller (a voting thread) longer than {@link #DEFAULT_MAX_WAIT}
 * by default: when the send buffer is full or Kafka's metadata cannot be had in that time, the
 * future fails with a {@code TimeoutException} ({@link ProducerBuilder#blockWhenFull} sets another bound).
 * With {@link ProducerBuilder#failFast()} it never blocks: a full buffer fails at once; the topic's metadata
 * is fetched when the producer is built (which waits up to {@link #FAIL_FAST_WARM_UP}), so the first
 * send does not fail for want of it.
 *
 * <p>With a sender key (and optionally a system key) it signs each statement's canonical bytes with
 * Ed25519 and sets the sender's public key; a statement that arrives already signed has its
 * signature checked before it is sent.
 */
public final class ElectoralLogProducer implements AutoCloseable {
    /** The longest a {@code publish} call blocks by default (Kafka's {@code max.block.ms}). */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(2);
    /** How long building a fail-fast producer waits for the topic's metadata. */
    public static final Duration FAIL_FAST_WARM_UP = Duration.ofSeconds(30);

    private final KafkaProducer<String, byte[]> kafka;
    private final StatementCodec codec;
    private final String topic;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final SigningKey senderKey;
    private final SigningKey systemKey;
    private final OpeningSealer sealer;

    ElectoralLogProducer(
            Properties config,
            StatementCodec codec,
            String topic,
            SigningKey senderKey,
            SigningKey systemKey,
            SealingKeys sealingKeys) {
        this.kafka = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.codec = codec;
        this.topic = topic;
        this.senderKey = senderKey;
        this.systemKey = systemKey;
        this.sealer = sealingKeys == null ? null : new OpeningSealer(sealingKeys);
    }

    /** Builds a producer: servers, topic, keys, back-pressure and any Kafka setting. */
    public static ProducerBuilder builder(String bootstrap) {
        return new ProducerBuilder(bootstrap);
    }

    /**
     * The Kafka record of an encoded event (schemas {@code StatementCodec#encode}) on {@code topic}:
     * keyed by its board, with the {@link WireFormat#WRITER_SCHEMA_HEADER} naming the envelope schema
     * it was written with (docs/producers.md, decision 140). Every event this project sends is made here.
     */
    public static ProducerRecord<String, byte[]> event(String topic, String board, byte[] value) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, board, value);
        r.headers().add(WireFormat.WRITER_SCHEMA_HEADER, WRITER_SCHEMA);
        return r;
    }

    private static final byte[] WRITER_SCHEMA =
            StatementCodec.envelopeFingerprint().getBytes(StandardCharsets.US_ASCII);

    /** Default producer settings: durable, idempotent, batched for throughput. */
    public static Properties defaults(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(64L * 1024 * 1024));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(DEFAULT_MAX_WAIT.toMillis()));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        return p;
    }

    public static ElectoralLogProducer create(String bootstrap) {
        return create(defaults(bootstrap), Topics.EVENTS);
    }

    /** A producer with the given Kafka settings (start from {@link #defaults}) on {@code topic}. */
    public static ElectoralLogProducer create(Properties kafkaConfig, String topic) {
        return new ElectoralLogProducer(kafkaConfig, StatementCodec.embedded(), topic, null, null, null);
    }

    /**
     * Asks for the topic's metadata until Kafka has it (with {@code max.block.ms=0} each ask returns
     * at once, and the answer arrives in the background); throws when it does not come in time.
     */
    void warmUp(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                if (!kafka.partitionsFor(topic).isEmpty()) {
                    return;
                }
            } catch (TimeoutException e) {
                // not there yet: the metadata request is under way
            }
            if (System.nanoTime() > deadline) {
                kafka.close(Duration.ZERO);
                throw new IllegalStateException("no metadata for topic " + topic + " within " + within.toSeconds()
                        + " s: is Kafka reachable and does the topic exist?");
            }
            try {
                Thread.sleep(20); // the metadata answer arrives on Kafka's sender thread
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kafka.close(Duration.ZERO);
                throw new IllegalStateException("interrupted while fetching the metadata of " + topic, e);
            }
        }
    }

    /** Publishes one statement (fills in a UUIDv7 delivery ID when it has none). */
    public CompletableFuture<PublishResult> publish(Statement statement) {
        return publish(Envelope.newBuilder().setStatement(statement).build());
    }

    /** Whether a sender key is 32 zero bytes: no one's key, the placeholder a statement made before its signer carries. */
    private static boolean isPlaceholder(ByteBuffer key) {
        if (key.remaining() != 32) {
            return false;
        }
        for (int i = key.position(); i < key.limit(); i++) {
            if (key.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Publishes one signed envelope. */
    public CompletableFuture<PublishResult> publish(Envelope envelope) {
        Statement st = envelope.getStatement();
        if (st == null) {
            throw new StatementRejectedException("statement", "the envelope has no statement");
        }
        if (st.getDeliveryId() == null || st.getDeliveryId().isBlank()) {
            st.setDeliveryId(DeliveryIds.uuidV7());
        }
        if (senderKey != null) {
            ByteBuffer given = st.getSenderPublicKey();
            ByteBuffer mine = ByteBuffer.wrap(senderKey.publicKey());
            // empty or 32 zero bytes: a placeholder this producer fills (schemas/README.md, JSON form)
            if (given != null && given.remaining() > 0 && !isPlaceholder(given) && !given.equals(mine)) {
                throw new StatementRejectedException("sender_public_key", "differs from this producer's sender key");
            }
            st.setSenderPublicKey(mine);
        }
        List<Opening> openings = List.of();
        if (sealer != null && st.getFormatVersion() == null) {
            if (senderKey == null && envelope.getSenderSignature() != null) {
                throw new StatementRejectedException(
                        "sender_signature",
                        "covers the statement with its personal values; committing them would void it: sign the "
                                + "committed form (CommittedForm.commit) or let this producer sign");
            }
            // the rules first on the values themselves: committed, a value's length is no longer in
            // the statement, but the projection still stores it (the text caps of StatementRules)
            Optional<StatementRules.Violation> broken = StatementRules.check(st);
            if (broken.isPresent()) {
                throw new StatementRejectedException(
                        broken.get().field(), broken.get().rule());
            }
            CommittedForm.Committed committed = CommittedForm.commit(st);
            st = committed.statement();
            envelope.setStatement(st);
            openings = committed.openings();
        }
        Entry entry = validate(st);
        byte[] canonical = entry.canonical();
        if (senderKey != null) {
            envelope.setSenderSignature(ByteBuffer.wrap(senderKey.sign(canonical)));
        } else if (envelope.getSenderSignature() != null) {
            checkSignature("sender_signature", st.getSenderPublicKey(), canonical, envelope.getSenderSignature());
        }
        if (systemKey != null) {
            envelope.setSystemSignature(ByteBuffer.wrap(systemKey.sign(canonical)));
        }
        byte[] leafHash = entry.leafHash();
        if (!openings.isEmpty()) {
            envelope.setPersonal(seal(st, leafHash, openings));
        }
        byte[] value = codec.encode(envelope);
        String board = st.getBoard();
        String deliveryId = st.getDeliveryId();
        CompletableFuture<PublishResult> result = new CompletableFuture<>();
        sent.incrementAndGet();
        try {
            kafka.send(event(topic, board, value), (meta, error) -> {
                if (error != null) {
                    failed.incrementAndGet();
                    result.completeExceptionally(error);
                } else {
                    acknowledged.incrementAndGet();
                    result.complete(new PublishResult(board, deliveryId, meta.partition(), meta.offset(), leafHash));
                }
            });
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            result.completeExceptionally(e);
        }
        return result;
    }

    /** The openings sealed for the statement's board and UTC day (docs/personal-data.md, {@link OpeningSealer}). */
    private PersonalData seal(Statement st, byte[] leafHash, List<Opening> openings) {
        PersonalOpenings.Sealed sealed = sealer.seal(st.getBoard(), st.getStatementTimestamp(), leafHash, openings);
        return PersonalData.newBuilder()
                .setKeyId(sealed.keyId())
                .setWrappedKey(ByteBuffer.wrap(sealed.wrappedKey()))
                .setNonce(ByteBuffer.wrap(sealed.nonce()))
                .setCiphertext(ByteBuffer.wrap(sealed.ciphertext()))
                .build();
    }

    private static void checkSignature(String field, ByteBuffer publicKey, byte[] canonical, ByteBuffer signature) {
        if (!SigningKey.verify(bytes(publicKey), canonical, bytes(signature))) {
            throw new StatementRejectedException(field, "does not verify over the canonical statement bytes");
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    /**
     * Checks the statement against {@link StatementRules} (the rules the projector applies too, so
     * nothing this accepts is dead-lettered for its content); the exception names the field and the
     * limit. Returns its entry (canonical bytes, leaf hash, kind), computed once.
     */
    static Entry validate(Statement st) {
        Optional<StatementRules.Violation> broken = StatementRules.check(st);
        if (broken.isPresent()) {
            throw new StatementRejectedException(
                    broken.get().field(), broken.get().rule());
        }
        byte[] canonical = CanonicalStatement.encode(st);
        broken = StatementRules.checkCanonicalSize(canonical.length);
        if (broken.isPresent()) {
            throw new StatementRejectedException(
                    broken.get().field(), broken.get().rule());
        }
        return Entry.of(canonical, st.getKind().name());
    }

    /** Waits until every statement sent so far is acknowledged or failed. */
    public void flush() {
        kafka.flush();
    }

    /** Sent, acknowledged, failed and in-flight counts. */
    public Map<String, Long> metrics() {
        long s = sent.get();
        long a = acknowledged.get();
        long f = failed.get();
        return Map.of("sent", s, "acknowledged", a, "failed", f, "in_flight", s - a - f);
    }

    /** Flushes, then closes; every future has completed when this returns. */
    @Override
    public void close() {
        kafka.flush();
        kafka.close();
    }
}
