package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.StatementCodec;
import org.junit.jupiter.api.Test;

/** Decision 81: the warm-up reads the topic's last events, at most as many as asked, split over the partitions. */
class RecentEventsTest {
    private final StatementCodec codec = StatementCodec.embedded();

    @Test
    void theLastEventsOfEachPartitionUpToTheirShare() throws Exception {
        ProjectorHarness h = new ProjectorHarness("recent", 2);
        Duration timeout = Duration.ofSeconds(30);
        assertEquals(List.of(), deliveryIds(RecentEvents.read(h.settings.kafkaClient(), h.topic, 10, timeout)));
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int i = 0; i < 30; i++) {
                // one board, so one key: every event in the same partition, the other one empty
                producer.publish(ProjectorHarness.statement("one-board", "d-" + i, 1_767_225_600_000L + i));
            }
            producer.flush();
        }
        // ten asked of two partitions: a share of five each, and only one partition holds events
        assertEquals(
                List.of("d-25", "d-26", "d-27", "d-28", "d-29"),
                deliveryIds(RecentEvents.read(h.settings.kafkaClient(), h.topic, 10, timeout)));
        // more asked than the topic holds: all of them, in order
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            all.add("d-" + i);
        }
        assertEquals(all, deliveryIds(RecentEvents.read(h.settings.kafkaClient(), h.topic, 1000, timeout)));
        assertEquals(List.of(), deliveryIds(RecentEvents.read(h.settings.kafkaClient(), h.topic, 0, timeout)));
    }

    private List<String> deliveryIds(List<byte[]> values) throws Exception {
        List<String> ids = new ArrayList<>();
        for (byte[] v : values) {
            ids.add(codec.decode(v).deliveryId());
        }
        return ids;
    }
}
