package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.infra.SchemaRegistryServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.EmbeddedSchemaRegistry;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.BoardState;
import org.electorallog.store.Projection;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * Issue 67 item 2 (decision 140): producers of both schema ID spaces on one board (one with the
 * embedded registry, whose envelope is ID 6; one with a real external registry, Apicurio, which
 * numbers the same envelope from 1), read by a projector of each kind. Every statement is projected
 * with the bytes its producer signed (its leaf hash is the one the producer computed): the writer
 * schema's fingerprint the events carry picks the schema, whatever the ID. An event naming a
 * schema no registry here knows is dead-lettered SCHEMA_MISMATCH; with
 * ELECTORAL_LOG_WRITER_SCHEMA=REQUIRED so is an event that names none. Nothing is misread, nothing
 * lost.
 */
class MixedRegistriesTest {
    @Test
    void producersOfBothIdSpacesOnOneBoardAreReadWithTheirOwnSchemas() throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(Path.of("target/stack"))) {
            for (boolean external : new boolean[] {false, true}) {
                run(registry, external);
            }
        }
    }

    private static void run(SchemaRegistryServer registry, boolean external) throws Exception {
        String name = external ? "mixed-external" : "mixed-embedded";
        String board = name + "-" + Long.toString(System.nanoTime(), 36);
        ProjectorHarness h = new ProjectorHarness(name, 1);
        Set<String> signedLeaves = new HashSet<>();
        Map<String, String> expected = new TreeMap<>();
        try (ElectoralLogProducer embedded = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                        .topic(h.topic)
                        .build();
                ElectoralLogProducer viaRegistry = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                        .topic(h.topic)
                        .schemaRegistry(registry.url())
                        .build();
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                for (ElectoralLogProducer p : List.of(embedded, viaRegistry)) {
                    PublishResult r = p.publish(ProjectorHarness.statement(
                                    board, (p == embedded ? "embedded-" : "registry-") + i, 1_000 + i))
                            .get();
                    signedLeaves.add(Hex.encode(r.leafHash()));
                }
            }
            int registryId = new ConfluentSchemaRegistryClient(registry.url(), Duration.ofSeconds(5), 1, false)
                    .idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema());
            int embeddedId = EmbeddedSchemaRegistry.instance().idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema());
            assertTrue(registryId != embeddedId, "the two ID spaces name the envelope differently here");
            // a producer naming a schema neither registry has (here: the statement record's) under an ID both have
            ProducerRecord<String, byte[]> stranger =
                    new ProducerRecord<>(h.topic, board, reframed(registryId, board, "stranger"));
            stranger.headers()
                    .add(
                            WireFormat.WRITER_SCHEMA_HEADER,
                            EmbeddedSchemaRegistry.fingerprint(Statement.getClassSchema())
                                    .getBytes(StandardCharsets.US_ASCII));
            raw.send(stranger).get();
            expected.put("stranger, ID " + registryId, "SCHEMA_MISMATCH");
            if (external) {
                // a producer that names no writer schema, its ID the embedded one: refused where it is required
                raw.send(new ProducerRecord<>(h.topic, board, reframed(embeddedId, board, "unnamed")))
                        .get();
                expected.put("unnamed, ID " + embeddedId, "SCHEMA_MISMATCH");
            }
        }
        ProjectorSettings settings =
                external ? h.settings.withSchemaRegistry(registry.url()).withWriterSchemaRequired(true) : h.settings;
        try (Projector p = Projector.start(settings)) {
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            assertNull(p.stopped());
            List<ConsumerRecord<String, byte[]>> dead = Poll.until(
                    Duration.ofMinutes(1),
                    expected.size() + " dead letters committed",
                    () -> DeadLetters.read(h),
                    l -> l.size() >= expected.size());
            Map<String, String> reasons = new TreeMap<>();
            for (ConsumerRecord<String, byte[]> r : dead) {
                String which = r.headers().lastHeader(WireFormat.WRITER_SCHEMA_HEADER) == null ? "unnamed" : "stranger";
                reasons.put(
                        which + ", ID " + WireFormat.schemaId(r.value()),
                        new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
            }
            assertEquals(expected, reasons, name);
        }
        assertEquals(6, h.size(board), name + ": every statement of both producers is projected");
        Set<String> projected = new HashSet<>();
        try (Projection db = Projection.open(h.stack.database(), 1, "mixed-registries-test")) {
            db.read(r -> {
                BoardState state = r.state(board).orElseThrow();
                r.statements(state.board().id(), 0, 6, (id, statement) -> {
                    projected.add(Hex.encode(Hashes.leafHash(statement)));
                    return true;
                });
                return null;
            });
        }
        assertEquals(signedLeaves, projected, name + ": each statement as its producer made it, none misread");
    }

    /** A statement of {@code board} framed with {@code id}, its Avro bytes those of the current envelope. */
    private static byte[] reframed(int id, String board, String deliveryId) {
        byte[] current = StatementCodec.embedded()
                .encode(Envelope.newBuilder()
                        .setStatement(ProjectorHarness.statement(board, deliveryId, 2_000))
                        .build());
        byte[] out = current.clone();
        System.arraycopy(WireFormat.frame(id, new byte[0]), 0, out, 0, WireFormat.HEADER_SIZE);
        return out;
    }
}
