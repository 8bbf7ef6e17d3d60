package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.electorallog.infra.SchemaRegistryServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Envelope;
import org.junit.jupiter.api.Test;

/**
 * An external Confluent-compatible schema registry selected by a setting (issue 16): the producer
 * registers its writer schema there and puts the registry's ID in every event; the projector reads
 * the schema by that ID and projects the events; the ID and schema are recorded in writer_schemas.
 * Against a real registry (Apicurio Registry's Confluent-compatible API, infra {@link
 * SchemaRegistryServer}).
 */
class ExternalRegistryTest {
    @Test
    void producerAndProjectorUseTheSameExternalRegistry() throws Exception {
        String board = "ext-registry-" + Long.toString(System.nanoTime(), 36);
        ProjectorHarness h = new ProjectorHarness("ext-registry", 1);
        int envelopeId;
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(Path.of("target/stack"));
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
            ConfluentSchemaRegistryClient client =
                    new ConfluentSchemaRegistryClient(registry.url(), Duration.ofSeconds(5), 1, false);
            envelopeId = client.idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema());
            assertEquals(
                    envelopeId,
                    client.bySubjectVersion(Topics.EVENTS_SUBJECT, "latest").getKey(),
                    "the producer registered the envelope once, as the subject's only version");
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
                assertEquals(envelopeId, rs.getInt(1), "the external registry's ID is in every record");
                assertFalse(rs.next(), "one ID for every record");
            }
        }
    }
}
