package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.avro.Schema;
import org.electorallog.infra.SchemaRegistryServer;
import org.electorallog.schemas.avro.Envelope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The registry client against a real registry (Apicurio Registry's Confluent-compatible API, infra
 * {@link SchemaRegistryServer}): register, look up, fetch by ID and from its cache, compatibility,
 * and the error codes 40401, 40403 and 409. Each test has a subject of its own. The faults a real
 * registry cannot be made to produce are {@link SchemaRegistryFaultsTest}'s.
 */
class SchemaRegistryClientTest {
    static SchemaRegistryServer registry;

    @BeforeAll
    static void start() {
        registry = SchemaRegistryServer.start(Path.of("target/stack"));
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    static String subject(String test) {
        return "client-test-" + test + "-" + Long.toString(System.nanoTime(), 36) + "-value";
    }

    static ConfluentSchemaRegistryClient client(String url, boolean autoRegister) {
        return new ConfluentSchemaRegistryClient(url, Duration.ofSeconds(5), 3, autoRegister);
    }

    ConfluentSchemaRegistryClient client(boolean autoRegister) {
        return client(registry.url(), autoRegister);
    }

    @Test
    void registersAndLooksUp() throws Exception {
        String subject = subject("register");
        Schema envelope = Envelope.getClassSchema();
        ConfluentSchemaRegistryClient c = client(false);
        ConfluentSchemaRegistryClient.RegistryException notYet =
                assertThrows(ConfluentSchemaRegistryClient.RegistryException.class, () -> c.idOf(subject, envelope));
        assertEquals(40401, notYet.errorCode(), notYet.getMessage());
        int id = c.register(subject, envelope);
        assertEquals(id, client(false).idOf(subject, envelope));
        assertEquals(id, client(false).register(subject, envelope), "registering the same schema again gives its ID");
        assertEquals(envelope, client(false).byId(id));
        assertEquals(id, client(false).bySubjectVersion(subject, "latest").getKey());
        assertEquals(envelope, client(false).bySubjectVersion(subject, "latest").getValue());
        assertTrue(client(false).isCompatible(subject, envelope));
    }

    @Test
    void autoRegisterRegistersAnUnknownSchema() {
        String subject = subject("auto");
        int id = client(true).idOf(subject, Envelope.getClassSchema());
        assertEquals(id, client(false).idOf(subject, Envelope.getClassSchema()), "registered by the first lookup");
    }

    @Test
    void anUnknownIdIsAnUnknownSchemaSoTheEventIsDeadLettered() {
        int unknown = 987_654;
        SchemaRegistry.UnknownSchemaException e = assertThrows(
                SchemaRegistry.UnknownSchemaException.class, () -> client(false).byId(unknown));
        assertEquals(unknown, e.id());
        assertTrue(e.getMessage().contains("40403"), e.getMessage());
        StatementCodec codec = new StatementCodec(client(false), subject("codec"));
        BadEventException bad =
                assertThrows(BadEventException.class, () -> codec.decode(WireFormat.frame(unknown, new byte[] {2})));
        assertEquals(BadEventException.Reason.UNKNOWN_SCHEMA, bad.reason());
    }

    @Test
    void aSchemaNotUnderTheSubjectIs40403() {
        String subject = subject("other");
        client(false).register(subject, Envelope.getClassSchema());
        Schema other = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}");
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).idOf(subject, other));
        assertEquals(40403, e.errorCode(), e.getMessage());
    }

    @Test
    void anIncompatibleSchemaIsRefusedWithoutRetry() {
        String subject = subject("compat");
        registry.compatibility(subject, "BACKWARD");
        client(false).register(subject, Envelope.getClassSchema());
        // a new required field without a default: readers of the new schema cannot read old events
        String text = Envelope.getClassSchema().toString();
        Schema incompatible = new Schema.Parser()
                .parse(text.replaceFirst("\\[", "[{\"name\":\"required_now\",\"type\":\"string\"},"));
        assertFalse(client(false).isCompatible(subject, incompatible));
        assertTrue(client(false).isCompatible(subject, Envelope.getClassSchema()));
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(subject, incompatible));
        assertEquals(409, e.status(), e.getMessage());
    }

    @Test
    void theCompatibilityLevelIsReadAndALevelBelowBackwardIsWarnedOf() {
        String subject = subject("level");
        String global = client(false).compatibility(subject);
        assertEquals("NONE", global, "a fresh registry starts at NONE, the level a projector warns of");
        String warning = ConfluentSchemaRegistryClient.compatibilityWarning(subject, global);
        assertTrue(warning != null && warning.contains("below BACKWARD"), warning);
        registry.compatibility(subject, "BACKWARD");
        assertEquals("BACKWARD", client(false).compatibility(subject));
        assertEquals(null, ConfluentSchemaRegistryClient.compatibilityWarning(subject, "BACKWARD"));
        assertEquals(null, ConfluentSchemaRegistryClient.compatibilityWarning(subject, "FULL_TRANSITIVE"));
        assertTrue(ConfluentSchemaRegistryClient.compatibilityWarning(subject, "FORWARD") != null);
    }

    @Test
    void aCachedSchemaOutlivesItsRegistryAndAGoneRegistryIsAClearError() throws Exception {
        SchemaRegistryServer own = SchemaRegistryServer.start(Path.of("target/stack"));
        String url = own.url();
        ConfluentSchemaRegistryClient cached = client(url, false);
        int id = cached.register(subject("cache"), Envelope.getClassSchema());
        assertEquals(Envelope.getClassSchema(), cached.byId(id));
        own.close();
        assertEquals(Envelope.getClassSchema(), cached.byId(id), "the second lookup of an ID is served from the cache");
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> new ConfluentSchemaRegistryClient(url, Duration.ofMillis(500), 2, false)
                        .register(subject("gone"), Envelope.getClassSchema()));
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
    }
}
