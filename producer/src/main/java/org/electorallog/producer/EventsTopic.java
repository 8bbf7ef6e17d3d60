package org.electorallog.producer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the events and dead-letter topics when they do not exist, with the settings the log
 * needs: infinite retention (Kafka is the source of truth) and compression. Returns only when the
 * topic is usable: the broker answers for it and every partition has a leader (the controller
 * accepting a topic does not mean the brokers' metadata has it yet).
 */
public final class EventsTopic {
    private EventsTopic() {}

    /** How long {@link #ensure} waits for a created topic to become usable. */
    public static final Duration USABLE_WAIT = Duration.ofSeconds(30);

    public static void ensure(String bootstrap, String topic, int partitions, short replicationFactor) {
        ensure(Map.of("bootstrap.servers", bootstrap), topic, partitions, replicationFactor);
    }

    /** The same with full Kafka client properties (bootstrap and security: SASL, TLS). */
    public static void ensure(Map<String, Object> client, String topic, int partitions, short replicationFactor) {
        try (Admin admin = Admin.create(client)) {
            create(admin, topic, partitions, replicationFactor);
            awaitUsable(admin, String.valueOf(client.get("bootstrap.servers")), topic);
        }
    }

    private static void create(Admin admin, String topic, int partitions, short replicationFactor) {
        try {
            Set<String> existing = admin.listTopics().names().get();
            if (existing.contains(topic)) {
                return;
            }
            Map<String, String> configs = new HashMap<>(Map.of(
                    "retention.ms", "-1",
                    "retention.bytes", "-1",
                    "cleanup.policy", "delete",
                    "compression.type", "producer"));
            if (replicationFactor > 0) {
                configs.put("min.insync.replicas", String.valueOf(Math.min(2, replicationFactor)));
            }
            // a replication factor below 1: the broker's default.replication.factor (and its min.insync.replicas)
            NewTopic t = replicationFactor > 0
                    ? new NewTopic(topic, partitions, replicationFactor)
                    : new NewTopic(topic, Optional.of(partitions), Optional.empty());
            t.configs(configs);
            admin.createTopics(List.of(t)).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(
                        "cannot create topic " + topic + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + topic, e);
        }
    }

    /** Waits until the broker reports the topic with a leader for every partition, or fails naming what is missing. */
    static void awaitUsable(Admin admin, String bootstrap, String topic) {
        long deadline = System.nanoTime() + USABLE_WAIT.toNanos();
        long backoff = 20;
        String last = "not reported by the broker";
        while (true) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(10, TimeUnit.SECONDS)
                        .get(topic);
                List<Integer> leaderless = d.partitions().stream()
                        .filter(p -> p.leader() == null || p.leader().isEmpty())
                        .map(TopicPartitionInfo::partition)
                        .toList();
                if (leaderless.isEmpty()) {
                    return;
                }
                last = "partitions " + leaderless + " have no leader";
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException(
                            "cannot describe topic " + topic + " on " + bootstrap + ": "
                                    + e.getCause().getMessage(),
                            e);
                }
            } catch (TimeoutException e) {
                last = "no answer from " + bootstrap;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " on " + bootstrap + " is not usable after "
                        + USABLE_WAIT.toSeconds() + " s: " + last);
            }
            try {
                Thread.sleep(backoff); // metadata propagating: ask again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
            }
            backoff = Math.min(backoff * 2, 500);
        }
    }
}
