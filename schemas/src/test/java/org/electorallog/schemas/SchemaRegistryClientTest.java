package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import org.apache.avro.Schema;
import org.electorallog.schemas.avro.Envelope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry client against an HTTP server started here that answers with the Confluent Schema
 * Registry's documented bodies and error codes (40401, 40403, 409, 42201 with status 422, 50001).
 */
class SchemaRegistryClientTest {
    static final ObjectMapper JSON = SchemaRegistryFake.JSON;
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

    String url() {
        return fake.url();
    }

    ConfluentSchemaRegistryClient client(boolean autoRegister) {
        return new ConfluentSchemaRegistryClient(url(), Duration.ofSeconds(5), 3, autoRegister);
    }

    @Test
    void registersLooksUpAndCaches() throws Exception {
        ConfluentSchemaRegistryClient c = client(false);
        Schema envelope = Envelope.getClassSchema();
        ConfluentSchemaRegistryClient.RegistryException notYet =
                assertThrows(ConfluentSchemaRegistryClient.RegistryException.class, () -> c.idOf(SUBJECT, envelope));
        assertEquals(40401, notYet.errorCode());
        assertEquals(21, c.register(SUBJECT, envelope));
        assertEquals(21, client(false).idOf(SUBJECT, envelope));
        assertEquals(envelope, client(false).byId(21));
        ConfluentSchemaRegistryClient cached = client(false);
        cached.byId(21);
        cached.byId(21);
        assertEquals(
                2, fake.calls.get("GET /schemas/ids/21").get(), "the second lookup of an ID is served from the cache");
        assertEquals(21, client(false).bySubjectVersion(SUBJECT, "latest").getKey());
        assertTrue(client(false).isCompatible(SUBJECT, envelope));
    }

    @Test
    void autoRegisterRegistersAnUnknownSchema() {
        assertEquals(21, client(true).idOf(SUBJECT, Envelope.getClassSchema()));
        assertEquals(
                1, fake.calls.get("POST /subjects/" + SUBJECT + "/versions").get());
    }

    @Test
    void anUnknownIdIsAnUnknownSchemaSoTheEventIsDeadLettered() {
        SchemaRegistry.UnknownSchemaException e = assertThrows(
                SchemaRegistry.UnknownSchemaException.class, () -> client(false).byId(99));
        assertEquals(99, e.id());
        assertTrue(e.getMessage().contains("40403"), e.getMessage());
        StatementCodec codec = new StatementCodec(client(false), SUBJECT);
        BadEventException bad =
                assertThrows(BadEventException.class, () -> codec.decode(WireFormat.frame(99, new byte[] {2})));
        assertEquals(BadEventException.Reason.UNKNOWN_SCHEMA, bad.reason());
    }

    @Test
    void aSchemaNotUnderTheSubjectIs40403() throws Exception {
        client(false).register(SUBJECT, Envelope.getClassSchema());
        Schema other = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}");
        assertEquals(
                40403,
                assertThrows(
                                ConfluentSchemaRegistryClient.RegistryException.class,
                                () -> client(false).idOf(SUBJECT, other))
                        .errorCode());
    }

    @Test
    void incompatibleAndInvalidSchemasAreRefusedWithoutRetry() {
        fake.incompatible = true;
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, Envelope.getClassSchema()));
        assertEquals(409, e.status());
        assertEquals(
                1, fake.calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "a 4xx is not retried");
        assertEquals(false, client(false).isCompatible(SUBJECT, Envelope.getClassSchema()));
        fake.incompatible = false;
        Schema broken = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"broken\",\"fields\":[]}");
        ConfluentSchemaRegistryClient.RegistryException invalid = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, broken));
        assertEquals(422, invalid.status());
        assertEquals(42201, invalid.errorCode());
    }

    @Test
    void storeErrorsAreRetriedABoundedNumberOfTimes() {
        fake.storeFailures.set(2);
        assertEquals(21, client(false).register(SUBJECT, Envelope.getClassSchema()), "two 50001 answers, then success");
        fake.storeFailures.set(10);
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, Envelope.getClassSchema()));
        assertEquals(50001, e.errorCode());
        assertEquals(
                3 + 3, fake.calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "3 attempts each");
    }

    @Test
    void anUnreachableRegistryIsAClearError() {
        String gone = url();
        fake.close();
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> new ConfluentSchemaRegistryClient(gone, Duration.ofMillis(500), 2, false)
                        .register(SUBJECT, Envelope.getClassSchema()));
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
    }
}
