package org.electorallog.projector;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The projector's Kafka Streams configuration: the guarantee, the commit and poll rhythm, and the
 * timeouts that decide how soon a dead instance's partitions are projected again (decision 104).
 */
final class StreamsProperties {
    /**
     * How often an instance's consumer heartbeats: also how soon a live instance hears that the group
     * is rebalancing after another's session ended (decision 116).
     */
    static final int HEARTBEAT_INTERVAL_MS = 500;

    /** How long a dead instance's open Kafka transaction may hold its partitions' offsets (decision 104). */
    static final int TRANSACTION_TIMEOUT_MS = 5_000;

    /** How often Kafka Streams commits the consumed offsets and the dead letters, in one transaction. */
    static final int COMMIT_INTERVAL_MS = 100;

    private StreamsProperties() {}

    /** The Kafka Streams properties of a projector instance with {@code settings}. */
    static Properties of(ProjectorSettings settings) {
        Properties p = settings.kafkaClient();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(
                StreamsConfig.STATE_DIR_CONFIG,
                settings.stateDir().toAbsolutePath().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.streamThreads());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
        // the batch-wait punctuator runs between polls: an idle poll must not outlast the batch wait
        p.put(
                StreamsConfig.POLL_MS_CONFIG,
                Math.max(1, Math.min(100, settings.batchMaxWait().toMillis())));
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        p.put(StreamsConfig.consumerPrefix("max.poll.records"), Math.max(500, settings.batchMaxRecords()));
        p.put(StreamsConfig.producerPrefix("linger.ms"), 5);
        // a dead instance's partitions move to a live one after the session timeout (decisions 104,
        // 116): 6 s by default, the brokers' least (group.min.session.timeout.ms) unless they allow
        // less; heartbeats come from the consumer's own thread, so a long batch does not end the
        // session. The survivor learns of the rebalance at its next heartbeat: every 0.5 s
        p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), (int)
                settings.group().sessionTimeout().toMillis());
        p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), HEARTBEAT_INTERVAL_MS);
        // the instance that takes a dead one's partitions (or a restarted one, which cannot fence its
        // former self: no persistent stores, so no kept process ID) reads their committed offsets only
        // once the dead one's open transaction is aborted, at this timeout (Kafka Streams' default 10 s)
        // plus the brokers' abort check (transaction.abort.timed.out.transaction.cleanup.interval.ms,
        // 1 s in every deployment file here). A transaction opens at a dead letter or at a commit and
        // ends at that commit, so 5 s is far above its usual length; one held open longer (the stream
        // thread waiting on a stalled PostgreSQL after a dead letter) is aborted and its task taken
        // again, PostgreSQL owning the offsets
        p.put(StreamsConfig.producerPrefix("transaction.timeout.ms"), TRANSACTION_TIMEOUT_MS);
        if (settings.group().instanceId() != null) {
            // static membership: a restarted instance takes its partitions back without a rebalance wait
            p.put(
                    StreamsConfig.consumerPrefix("group.instance.id"),
                    settings.group().instanceId());
        }
        return p;
    }
}
