package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.SchemaRegistryFake;
import org.junit.jupiter.api.Test;

/**
 * An external Confluent-compatible schema registry selected by a setting (issue 16): the producer
 * registers its writer schema there and puts the registry's ID in every event; the projector reads
 * the schema by that ID and projects the events; the ID and schema are recorded in writer_schemas.
 * Against the HTTP fake the registry client's own tests use.
 */
class ExternalRegistryTest {
    @Test
    void producerAndProjectorUseTheSameExternalRegistry() throws Exception {
        String board = "ext-registry-" + Long.toString(System.nanoTime(), 36);
        ProjectorHarness h = new ProjectorHarness("ext-registry", 1);
        try (SchemaRegistryFake registry = new SchemaRegistryFake();
                Projector p = Projector.start(h.settings.withSchemaRegistry(registry.url()));
                ElectoralLogProducer producer = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                        .topic(h.topic)
                        .schemaRegistry(registry.url())
                        .build()) {
            PublishResult last = null;
            for (int i = 0; i < 5; i++) {
                last = producer.publish(ProjectorHarness.statement(board, "d" + i, 1_000 + i))
                        .get();
            }
            assertEquals(4L, last.offset());
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertEquals(0, p.metrics().deadLetters());
            assertEquals(
                    1,
                    registry.calls
                            .get("POST /subjects/" + SchemaRegistryFake.SUBJECT + "/versions")
                            .get());
            assertTrue(registry.calls.containsKey("GET /schemas/ids/21"), registry.calls.toString());
        }
        assertEquals(5, h.size(board));
        try (Connection c = DriverManager.getConnection(
                        h.stack.database().jdbcUrl(),
                        h.stack.database().user(),
                        h.stack.database().password());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT DISTINCT schema_id FROM records r JOIN boards b USING (board_id) WHERE b.name = ?")) {
            ps.setString(1, board);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(21, rs.getInt(1), "the external registry's ID is in every record");
            }
        }
    }
}
