package org.electorallog.producer;

import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.electorallog.core.SigningKey;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.statement.SealingKeys;

/** Options of a producer: servers, topic, keys, back-pressure and any Kafka setting ({@link ElectoralLogProducer#builder}). */
public final class ProducerBuilder {
    private final Properties kafka;
    private String topic = Topics.EVENTS;
    private SigningKey senderKey;
    private SigningKey systemKey;
    private boolean failFast;
    private SealingKeys sealingKeys;
    private StatementCodec codec = StatementCodec.embedded();

    ProducerBuilder(String bootstrap) {
        this.kafka = ElectoralLogProducer.defaults(bootstrap);
    }

    public ProducerBuilder topic(String topic) {
        this.topic = topic;
        return this;
    }

    /** Signs every statement as this sender (and sets its public key on the statement). */
    public ProducerBuilder senderKey(SigningKey key) {
        this.senderKey = key;
        return this;
    }

    /** Adds the voting system's signature to every statement. */
    public ProducerBuilder systemKey(SigningKey key) {
        this.systemKey = key;
        return this;
    }

    /**
     * Publishes statements in the committed form (format 2, docs/personal-data.md): each personal
     * value replaced by a salted commitment before signing, the values and salts sent beside the
     * statement encrypted under a content key of this producer's, which travels wrapped to the
     * public half of the day's data key from {@code keys} (the log makes it; this producer can open
     * nothing it did not send). Statements that arrive in format 2 already are sent as they are.
     */
    public ProducerBuilder committedForm(SealingKeys keys) {
        this.sealingKeys = keys;
        return this;
    }

    /** Back-pressure by blocking: a full buffer makes {@code publish} wait up to {@code maxWait}, then fail. */
    public ProducerBuilder blockWhenFull(Duration maxWait) {
        kafka.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(maxWait.toMillis()));
        return this;
    }

    /**
     * Back-pressure by failing: a full buffer fails the publish at once. {@link #build} fetches
     * the topic's metadata first (up to {@link ElectoralLogProducer#FAIL_FAST_WARM_UP}) and keeps it however long
     * the topic is idle, so no send fails for want of it.
     */
    public ProducerBuilder failFast() {
        kafka.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "0");
        kafka.put(
                ProducerConfig.METADATA_MAX_IDLE_CONFIG,
                String.valueOf(Duration.ofDays(1).toMillis()));
        failFast = true;
        return this;
    }

    /**
     * Writer schemas from a Confluent-compatible schema registry at {@code url} (REST API)
     * instead of the embedded manifest: the envelope's schema is registered under the events
     * subject when the registry does not have it (the registry's compatibility rules decide),
     * and its ID goes into every event. Producers in other languages use the same registry.
     */
    public ProducerBuilder schemaRegistry(String url) {
        this.codec = url == null
                ? StatementCodec.embedded()
                : new StatementCodec(
                        new ConfluentSchemaRegistryClient(url, Duration.ofSeconds(10), 3, true), Topics.EVENTS_SUBJECT);
        return this;
    }

    /** Bytes of statements the producer may hold unacknowledged (default 64 MiB). */
    public ProducerBuilder bufferBytes(long bytes) {
        kafka.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(bytes));
        return this;
    }

    /** Any other Kafka producer setting (idempotence and acks=all cannot be turned off). */
    public ProducerBuilder kafka(String key, String value) {
        if ((key.equals(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG) && !value.equals("true"))
                || (key.equals(ProducerConfig.ACKS_CONFIG) && !value.equals("all") && !value.equals("-1"))) {
            throw new IllegalArgumentException(key + "=" + value + " could lose or double statements; refused");
        }
        kafka.put(key, value);
        return this;
    }

    public ElectoralLogProducer build() {
        return buildWithin(ElectoralLogProducer.FAIL_FAST_WARM_UP);
    }

    /** Builds, a fail-fast producer waiting at most {@code warmUp} for the topic's metadata. */
    public ElectoralLogProducer buildWithin(Duration warmUp) {
        ElectoralLogProducer p = new ElectoralLogProducer(kafka, codec, topic, senderKey, systemKey, sealingKeys);
        if (failFast) {
            p.warmUp(warmUp);
        }
        return p;
    }
}
