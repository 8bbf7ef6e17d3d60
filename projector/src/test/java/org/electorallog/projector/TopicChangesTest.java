package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * What the projector must refuse rather than skip (issue 13): events deleted from Kafka before
 * they were projected, and a changed partition count of the events topic under existing boards.
 */
class TopicChangesTest {

    private static void publish(ProjectorHarness h, String board, int from, int to) throws Exception {
        try (ElectoralLogProducer p =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int i = from; i < to; i++) {
                p.publish(ProjectorHarness.statement(board, board + "-" + i, 1_000 + i))
                        .get();
            }
        }
    }

    @Test
    void eventsDeletedAheadOfTheProjectionStopTheProjectorNamingTheOffsets() throws Exception {
        ProjectorHarness h = new ProjectorHarness("deleted", 1);
        String board = "deleted-board";
        publish(h, board, 0, 5);
        try (Projector p = Projector.start(h.settings)) {
            h.awaitOffset(0, 5);
        }
        publish(h, board, 5, 10);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            // retention (or an operator) removes offsets 5..7 before the projector saw them
            admin.deleteRecords(Map.of(new TopicPartition(h.topic, 0), RecordsToDelete.beforeOffset(8)))
                    .all()
                    .get();
        }
        try (Projector p = Projector.start(h.settings)) {
            Poll.until(Duration.ofSeconds(60), "the projector to stop", () -> p.stopped() != null);
            Throwable why = p.stopped();
            assertNotNull(why, "the projector stops instead of jumping to the log start");
            String m = why.getMessage();
            assertTrue(m.contains(h.topic + "-0") && m.contains("offsets 5 to 7") && m.contains("restore"), m);
            assertEquals(false, p.health().get("healthy"));
            assertEquals(m, p.health().get("stopped"));
        }
        assertEquals(5, h.projectedOffset(0), "nothing projected past the missing events");
        assertEquals(5, h.size(board), "the events after the deleted ones were not projected either");
    }

    @Test
    void aChangedPartitionCountIsRefusedAtStartOnceBoardsExist() throws Exception {
        ProjectorHarness h = new ProjectorHarness("grown", 1);
        publish(h, "grown-board", 0, 3);
        try (Projector p = Projector.start(h.settings)) {
            h.awaitOffset(0, 3);
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            admin.createPartitions(Map.of(h.topic, NewPartitions.increaseTo(3)))
                    .all()
                    .get();
        }
        ProjectionStoppedException e =
                assertThrows(ProjectionStoppedException.class, () -> Projector.start(h.settings));
        assertTrue(e.getMessage().contains("has 3 partitions but had 1"), e.getMessage());
        assertTrue(e.getMessage().contains("new events topic"), e.getMessage());
    }

    @Test
    void aTopicWithNothingProjectedMayChangeItsPartitionCount() throws Exception {
        ProjectorHarness h = new ProjectorHarness("empty-grown", 1);
        try (Projector p = Projector.start(h.settings)) {
            assertEquals(1, p.partitions());
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.stack.kafkaBootstrap()))) {
            admin.createPartitions(Map.of(h.topic, NewPartitions.increaseTo(2)))
                    .all()
                    .get();
        }
        String board = HostileInputTest.boardOn(TopicLayout.of(2), 1, "empty-grown");
        publish(h, board, 0, 2);
        try (Projector p = Projector.start(h.settings)) {
            assertEquals(2, p.partitions());
            h.awaitOffset(1, 2);
        }
        assertEquals(2, h.size(board));
    }
}
