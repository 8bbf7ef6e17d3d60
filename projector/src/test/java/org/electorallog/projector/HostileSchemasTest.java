package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.infra.SchemaRegistryServer;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.WireFormat;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * Issue 41 items 5 to 7, through a real broker, a real external registry (Apicurio Registry, infra
 * {@link SchemaRegistryServer}) and a real PostgreSQL: events framed with the ID of a JSON Schema
 * and of a recursive schema with a value nested 100,000 deep; a statement of
 * kind UNKNOWN and one of a kind a newer writer schema added. Each is dead-lettered with its reason
 * and the board goes on (before the fix the first stopped the partition for good, and UNKNOWN was
 * projected). Then a record written behind the projector's back at the board's next ID: the
 * projector stops as damage and dead-letters nothing.
 */
class HostileSchemasTest {
    private static final int NESTING = 100_000;

    @Test
    void decodeFailuresAndUnknownKindsAreDeadLetteredAndDamageStopsTheProjector() throws Exception {
        String board = "hostile-schemas-" + Long.toString(System.nanoTime(), 36);
        ProjectorHarness h = new ProjectorHarness("hostile-schemas", 1);
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(Path.of("target/stack"));
                ElectoralLogProducer producer = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                        .topic(h.topic)
                        .schemaRegistry(registry.url())
                        .build();
                KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
                        ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            // schemas any producer of the registry could register, under subjects of their own
            int jsonSchema = registry.register(
                    "hostile-json-value",
                    "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"type\": \"object\", "
                            + "\"properties\": {\"board\": {\"type\": \"string\"}}}",
                    "JSON");
            int recursive = registry.register(
                    "hostile-recursive-value",
                    "{\"type\": \"record\", \"name\": \"Node\", \"fields\": [{\"name\": \"next\", \"type\": [\"null\", \"Node\"]}]}",
                    "AVRO");
            Schema newer = newerEnvelope();
            int newerId = registry.register("hostile-newer-value", newer.toString(), "AVRO");

            producer.publish(ProjectorHarness.statement(board, "good-0", 1_000)).get(); // registers the envelope
            int envelope = new ConfluentSchemaRegistryClient(registry.url(), Duration.ofSeconds(5), 1, false)
                    .idOf(Topics.EVENTS_SUBJECT, Envelope.getClassSchema());
            byte[] deep = new byte[NESTING + 1];
            Arrays.fill(deep, 0, NESTING, (byte) 2); // union branch 1 (Node), zig-zag encoded
            Map<String, String> expected = new TreeMap<>();
            send(
                    raw,
                    h.topic,
                    board,
                    WireFormat.frame(jsonSchema, "{\"board\": \"x\"}".getBytes(StandardCharsets.UTF_8)));
            expected.put(Integer.toString(jsonSchema), "UNKNOWN_SCHEMA");
            send(raw, h.topic, board, WireFormat.frame(recursive, deep));
            expected.put(Integer.toString(recursive), "UNDECODABLE");
            Statement unknown = ProjectorHarness.statement(board, "unknown-kind", 1_001);
            unknown.setKind(StatementKind.UNKNOWN);
            send(
                    raw,
                    h.topic,
                    board,
                    reframed(
                            envelope,
                            Envelope.newBuilder().setStatement(unknown).build()));
            expected.put(Integer.toString(envelope), "UNKNOWN_KIND");
            send(raw, h.topic, board, WireFormat.frame(newerId, newerKind(newer, board)));
            expected.put(Integer.toString(newerId), "UNKNOWN_KIND");
            producer.publish(ProjectorHarness.statement(board, "good-1", 1_002)).get();

            try (Projector p = Projector.start(h.settings.withSchemaRegistry(registry.url()))) {
                h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(2));
                assertNull(p.stopped(), "the bad events did not stop the projector");
                assertEquals(
                        4, p.metrics().deadLetters(), p.metrics().snapshot().toString());
                assertEquals(2, h.size(board), "the good statements around the bad ones are projected");

                Map<String, String> reasons = new TreeMap<>();
                for (ConsumerRecord<String, byte[]> r : committedDeadLetters(h, 4)) {
                    reasons.put(
                            Integer.toString(WireFormat.schemaId(r.value())),
                            new String(r.headers().lastHeader("dlq.reason").value(), StandardCharsets.UTF_8));
                    String message =
                            new String(r.headers().lastHeader("dlq.message").value(), StandardCharsets.UTF_8);
                    if (WireFormat.schemaId(r.value()) == newerId) {
                        assertTrue(message.contains("upgrade the projector"), message);
                    }
                    if (WireFormat.schemaId(r.value()) == jsonSchema) {
                        assertTrue(message.contains("JSON schema, not Avro"), message);
                    }
                }
                assertEquals(expected, reasons);

                // damage: a record at the board's next ID, written behind the projector's back
                try (Connection c = h.connect();
                        java.sql.Statement st = c.createStatement()) {
                    st.execute("CREATE TEMP TABLE forged AS SELECT r.* FROM records r JOIN boards b USING (board_id) "
                            + "WHERE b.name = '" + board + "' AND r.id = 0");
                    st.execute("UPDATE forged SET id = 2, delivery_id = 'forged'");
                    st.execute("INSERT INTO records SELECT * FROM forged");
                }
                producer.publish(ProjectorHarness.statement(board, "good-2", 1_003))
                        .get();
                Throwable stop = awaitStopped(p);
                assertTrue(
                        stop.getMessage().contains("only damage to the projection")
                                && stop.getMessage().contains("23505"),
                        stop.getMessage());
                assertEquals(4, p.metrics().deadLetters(), "the statement that met the damage is not dead-lettered");
            }
            assertEquals(2, h.size(board));
        }
    }

    /** A bug that throws a JDK exception in the write path is retried, never taken for bad content. */
    @Test
    void aJdkExceptionIsNeverTakenForTheContentsFault() throws SQLException {
        assertEquals(BatchFailure.INFRASTRUCTURE, BatchFailure.of(new IllegalArgumentException("a bug")));
        assertEquals(BatchFailure.INFRASTRUCTURE, BatchFailure.of(new NullPointerException()));
        assertEquals(BatchFailure.DATA, BatchFailure.of(new SQLException("value too long", "22001")));
    }

    /**
     * The dead letters once {@code n} are committed: those found while decoding go in Kafka Streams'
     * transaction, which commits after PostgreSQL's offset has moved.
     */
    private static java.util.List<ConsumerRecord<String, byte[]>> committedDeadLetters(ProjectorHarness h, int n)
            throws InterruptedException {
        return Poll.until(
                Duration.ofMinutes(1), n + " dead letters committed", () -> DeadLetters.read(h), l -> l.size() >= n);
    }

    private static Throwable awaitStopped(Projector p) throws InterruptedException {
        Poll.until(Duration.ofMinutes(1), "the projector to stop on the damaged board", () -> p.stopped() != null);
        return p.stopped();
    }

    private static void send(KafkaProducer<String, byte[]> raw, String topic, String board, byte[] value)
            throws Exception {
        raw.send(new ProducerRecord<>(topic, board, value)).get();
    }

    /** The envelope's wire bytes under another schema ID (the external registry's). */
    private static byte[] reframed(int id, Envelope envelope) {
        byte[] embedded = StatementCodec.embedded().encode(envelope);
        return WireFormat.frame(id, Arrays.copyOfRange(embedded, WireFormat.HEADER_SIZE, embedded.length));
    }

    /** The envelope schema of a newer producer: one more statement kind at the end of the enum. */
    private static Schema newerEnvelope() {
        String current = Envelope.getClassSchema().toString();
        String kind = org.electorallog.statement.StatementKinds.NAMES.get(
                org.electorallog.statement.StatementKinds.NAMES.size() - 1);
        String last = "\"" + kind + "\"]";
        assertTrue(current.contains(last), "the enum ends with " + kind);
        return new Schema.Parser().parse(current.replace(last, "\"" + kind + "\",\"FUTURE_KIND\"]"));
    }

    /** A statement of the newer kind, written with the newer schema. */
    private static byte[] newerKind(Schema newer, String board) throws Exception {
        Envelope e = Envelope.newBuilder()
                .setStatement(ProjectorHarness.statement(board, "future-kind", 1_001))
                .build();
        GenericRecord copy = (GenericRecord) GenericData.get().deepCopy(newer, e);
        GenericRecord statement = (GenericRecord) copy.get("statement");
        Schema kind = statement.getSchema().getField("kind").schema();
        statement.put("kind", new GenericData.EnumSymbol(kind, "FUTURE_KIND"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(newer).write(copy, enc);
        enc.flush();
        return out.toByteArray();
    }
}
