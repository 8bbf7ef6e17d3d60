package org.electorallog.producer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the events and dead-letter topics when they do not exist, with the settings the log
 * needs: infinite retention (Kafka is the source of truth) and compression.
 */
public final class EventsTopic {
    private EventsTopic() {
    }

    public static void ensure(String bootstrap, String topic, int partitions, short replicationFactor) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Set<String> existing = admin.listTopics().names().get();
            if (existing.contains(topic)) {
                return;
            }
            NewTopic t = new NewTopic(topic, partitions, replicationFactor).configs(Map.of(
                    "retention.ms", "-1",
                    "retention.bytes", "-1",
                    "cleanup.policy", "delete",
                    "compression.type", "producer",
                    "min.insync.replicas", String.valueOf(Math.min(2, replicationFactor))));
            admin.createTopics(List.of(t)).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + topic, e);
        }
    }
}
