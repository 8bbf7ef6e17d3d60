package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.electorallog.config.DatabaseLogin;
import org.junit.jupiter.api.Test;

/**
 * The timeouts of decision 104 reach the clients Kafka Streams makes: Kafka Streams sets its own
 * producer and consumer values under exactly-once, and a setting it overrode or refused would bring
 * back its 10 s transaction timeout (issue 43 item 4).
 */
class StreamsPropertiesTest {
    private final ProjectorSettings settings = ProjectorSettings.defaults(
                    "localhost:9092",
                    new DatabaseLogin("jdbc:postgresql://localhost/x", "u", "p"),
                    Path.of("target/state"),
                    null)
            .withInstanceId("projector-a");
    private final StreamsConfig config = new StreamsConfig(StreamsProperties.of(settings));

    @Test
    void theThreadProducerAbortsAfterTheProjectorsTransactionTimeout() {
        Map<String, Object> producer = config.getProducerConfigs("client");
        assertEquals(StreamsProperties.TRANSACTION_TIMEOUT_MS, producer.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG));
        assertEquals(StreamsConfig.EXACTLY_ONCE_V2, config.getString(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
    }

    @Test
    void theConsumerLeavesTheGroupAfterTheSessionTimeoutAndKeepsItsStaticId() {
        Map<String, Object> consumer = config.getMainConsumerConfigs("group", "client", 0);
        assertEquals(6_000, consumer.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "Kafka's least by default");
        assertEquals(
                StreamsProperties.HEARTBEAT_INTERVAL_MS, consumer.get(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
        assertEquals("projector-a-0", consumer.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        assertEquals("read_committed", consumer.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG));
    }

    @Test
    void aShorterSessionReachesTheConsumerAndTooShortAOneIsRefused() {
        Map<String, Object> consumer = new StreamsConfig(
                        StreamsProperties.of(settings.withSessionTimeout(java.time.Duration.ofSeconds(3))))
                .getMainConsumerConfigs("group", "client", 0);
        assertEquals(3_000, consumer.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
        assertEquals("projector-a-0", consumer.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), "the ID stays");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> settings.withSessionTimeout(java.time.Duration.ofMillis(1500)));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("at least 2000 ms"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertNull(
                settings.forReplay("replay", "dead").group().instanceId(), "a replay has no static ID");
    }
}
