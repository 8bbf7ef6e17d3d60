package org.electorallog.projector;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Utils;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the projector knows about its topics at start: the events topic's partition count (a
 * board's partition is Kafka's default partitioner on its name) and how large a dead letter may be.
 *
 * @param partitions         partitions of the events topic
 * @param deadLetterMaxBytes the largest dead letter the dead-letter topic takes, less a margin
 */
record TopicLayout(int partitions, int deadLetterMaxBytes) {
    private static final Logger LOG = LoggerFactory.getLogger(TopicLayout.class);
    /** Kafka's default {@code max.message.bytes} and producer {@code max.request.size}. */
    static final int KAFKA_DEFAULT_MAX_BYTES = 1_048_576;
    /** Left for the record batch framing and the producer's own overhead. */
    static final int MARGIN_BYTES = 16_384;
    /** How long start-up waits for a topic the broker does not report yet (metadata still propagating after creation). */
    static final long UNKNOWN_TOPIC_WAIT_MILLIS = 5_000;
    /** How long start-up waits for a known topic's partitions to get leaders. */
    static final long LEADER_WAIT_MILLIS = 30_000;

    /**
     * The partition of a board: Kafka's default partitioner for a keyed record
     * ({@code toPositive(murmur2(key)) % partitions}, the key being the board name in UTF-8).
     */
    int partitionOf(String board) {
        return Utils.toPositive(Utils.murmur2(board.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * Reads both topics, waiting (bounded) for metadata that is still propagating after the topics
     * were created; fails fast, naming the topic, when one really does not exist.
     */
    static TopicLayout read(ProjectorSettings settings) {
        Properties p = settings.kafkaClient();
        p.put("default.api.timeout.ms", "30000");
        try (Admin admin = Admin.create(p)) {
            TopicDescription events = describe(admin, settings, settings.topic());
            describe(admin, settings, settings.deadLetterTopic());
            return new TopicLayout(events.partitions().size(), deadLetterMaxBytes(admin, settings.deadLetterTopic()));
        }
    }

    /** The description of a topic whose partitions all have leaders. */
    static TopicDescription describe(Admin admin, ProjectorSettings settings, String topic) {
        long started = System.currentTimeMillis();
        long backoff = 50;
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS)
                        .get(topic);
                if (d.partitions().stream().allMatch(TopicLayout::led)) {
                    return d;
                }
                if (System.currentTimeMillis() - started > LEADER_WAIT_MILLIS) {
                    throw new IllegalStateException(
                            "topic " + topic + " on " + settings.bootstrap() + " has partitions without a leader after "
                                    + LEADER_WAIT_MILLIS / 1000 + " s: " + d.partitions());
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException(
                            "cannot describe topic " + topic + " on " + settings.bootstrap() + ": "
                                    + e.getCause().getMessage(),
                            e);
                }
                if (System.currentTimeMillis() - started > UNKNOWN_TOPIC_WAIT_MILLIS) {
                    throw new IllegalStateException("topic " + topic + " does not exist on " + settings.bootstrap()
                            + ": create it (the projector reads the events topic and writes the dead-letter topic)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking topic " + topic, e);
            } catch (TimeoutException e) {
                throw new IllegalStateException(
                        "cannot describe topic " + topic + " on " + settings.bootstrap() + ": no answer in 30 s", e);
            }
            pause(backoff); // metadata still propagating: ask again
            backoff = Math.min(backoff * 2, 1_000);
        }
    }

    private static boolean led(TopicPartitionInfo p) {
        return p.leader() != null && !p.leader().isEmpty();
    }

    /**
     * The dead-letter topic's {@code max.message.bytes} (capped by the producer's default request
     * size) less {@link #MARGIN_BYTES}. Without the right to read topic configurations, Kafka's
     * default is assumed and said in the log.
     */
    private static int deadLetterMaxBytes(Admin admin, String topic) {
        int max = KAFKA_DEFAULT_MAX_BYTES;
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(List.of(r))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(r);
            ConfigEntry e = config == null ? null : config.get("max.message.bytes");
            if (e != null && e.value() != null) {
                max = Math.min(max, Integer.parseInt(e.value()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the configuration of " + topic, e);
        } catch (Exception e) {
            LOG.warn(
                    "cannot read max.message.bytes of {} ({}); assuming Kafka's default {}",
                    topic,
                    e.getMessage(),
                    max);
        }
        return Math.max(4_096, max - MARGIN_BYTES);
    }

    /**
     * Records the partition count on the first start and refuses a changed count once anything of
     * the topic was projected: a board must never move partitions.
     */
    void requireUnchanged(Projection transactions, String topic) {
        try {
            transactions.commit(c -> {
                Integer stored = c.lockRecordedLayout(topic).orElse(null);
                if (stored != null && stored != partitions && c.anyProjected(topic)) {
                    throw new ProjectionStoppedException("topic " + topic + " has " + partitions
                            + " partitions but had " + stored + " when its boards were projected: a board's "
                            + "statements would now go to another partition and lose their order. Do not change "
                            + "the partition count of an events topic; to grow, give new boards a new events topic "
                            + "(docs/architecture.md, \"Growing the events topic\"), or restore the topic's "
                            + "partition count.");
                }
                c.recordLayout(topic, partitions);
                return null;
            });
        } catch (ProjectionException e) {
            throw new IllegalStateException(
                    "cannot check the layout of topic " + topic + " in PostgreSQL: " + e.getMessage(), e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for topic metadata", e);
        }
    }

    /** For tests: the layout of a topic with {@code partitions} partitions and Kafka's default message size. */
    static TopicLayout of(int partitions) {
        return new TopicLayout(partitions, KAFKA_DEFAULT_MAX_BYTES - MARGIN_BYTES);
    }
}
