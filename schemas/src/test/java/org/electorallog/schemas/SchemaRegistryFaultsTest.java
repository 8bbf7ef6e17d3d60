package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Duration;
import org.apache.avro.Schema;
import org.electorallog.schemas.avro.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry client's handling of three faults a real registry cannot be made to produce through
 * it (docs/testing.md "Fakes"): a store failure (50001, retried a bounded number of times), an
 * invalid schema (42201: the client only ever sends schemas Avro parsed), and an ID whose schema
 * is text that is no Avro schema (Apicurio Registry refuses to store one; another registry may
 * serve one): the event is an unknown schema, dead-lettered, never a crash. Against {@link
 * SchemaRegistryFake}, which answers with the Confluent Schema Registry's documented bodies; the
 * rest of the client is tested against a real registry ({@link SchemaRegistryClientTest}).
 */
class SchemaRegistryFaultsTest {
    static final String SUBJECT = SchemaRegistryFake.SUBJECT;
    SchemaRegistryFake fake;

    @BeforeEach
    void start() throws IOException {
        fake = new SchemaRegistryFake();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    ConfluentSchemaRegistryClient client() {
        return new ConfluentSchemaRegistryClient(fake.url(), Duration.ofSeconds(5), 3, false);
    }

    @Test
    void anInvalidSchemaIsRefusedWithoutRetry() {
        Schema broken = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"broken\",\"fields\":[]}");
        ConfluentSchemaRegistryClient.RegistryException invalid = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class, () -> client().register(SUBJECT, broken));
        assertEquals(422, invalid.status());
        assertEquals(42201, invalid.errorCode());
        assertEquals(
                1, fake.calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "a 4xx is not retried");
    }

    @Test
    void anIdWhoseTextIsNoAvroSchemaIsAnUnknownSchema() {
        fake.put(33, "{\"type\": \"no-such-type\"}", "AVRO");
        StatementCodec codec = new StatementCodec(client(), SUBJECT);
        BadEventException bad =
                assertThrows(BadEventException.class, () -> codec.decode(WireFormat.frame(33, new byte[] {0})));
        assertEquals(BadEventException.Reason.UNKNOWN_SCHEMA, bad.reason(), bad.getMessage());
    }

    @Test
    void storeErrorsAreRetriedABoundedNumberOfTimes() {
        fake.storeFailures.set(2);
        assertEquals(21, client().register(SUBJECT, Envelope.getClassSchema()), "two 50001 answers, then success");
        fake.storeFailures.set(10);
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client().register(SUBJECT, Envelope.getClassSchema()));
        assertEquals(50001, e.errorCode());
        assertEquals(
                3 + 3, fake.calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "3 attempts each");
    }
}
