package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
    static final ObjectMapper JSON = new ObjectMapper();
    static final String SUBJECT = "electoral-log.events-value";
    HttpServer server;
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final Map<Integer, String> schemas = new ConcurrentHashMap<>();
    final AtomicInteger storeFailures = new AtomicInteger();
    volatile boolean incompatible;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getRawPath();
        String key = x.getRequestMethod() + " " + path;
        calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (storeFailures.get() > 0) {
            storeFailures.decrementAndGet();
            reply(x, 500, Map.of("error_code", 50001, "message", "Error in the backend data store"));
            return;
        }
        if (key.equals("POST /subjects/" + SUBJECT + "/versions")) {
            String schema = JSON.readTree(body).get("schema").asText();
            if (incompatible) {
                reply(
                        x,
                        409,
                        Map.of(
                                "error_code",
                                409,
                                "message",
                                "Schema being registered is incompatible with an earlier schema"));
            } else if (schema.contains("\"broken")) {
                reply(x, 422, Map.of("error_code", 42201, "message", "Input schema is an invalid Avro schema"));
            } else {
                schemas.put(21, schema);
                reply(x, 200, Map.of("id", 21));
            }
        } else if (key.equals("POST /subjects/" + SUBJECT)) {
            String schema = JSON.readTree(body).get("schema").asText();
            if (schemas.isEmpty()) {
                reply(x, 404, Map.of("error_code", 40401, "message", "Subject '" + SUBJECT + "' not found."));
            } else if (!new Schema.Parser().parse(schemas.get(21)).equals(new Schema.Parser().parse(schema))) {
                reply(x, 404, Map.of("error_code", 40403, "message", "Schema not found"));
            } else {
                reply(x, 200, Map.of("subject", SUBJECT, "id", 21, "version", 1, "schema", schemas.get(21)));
            }
        } else if (path.startsWith("/schemas/ids/")) {
            int id = Integer.parseInt(path.substring("/schemas/ids/".length()));
            if (schemas.containsKey(id)) {
                reply(x, 200, Map.of("schema", schemas.get(id)));
            } else {
                reply(x, 404, Map.of("error_code", 40403, "message", "Schema " + id + " not found"));
            }
        } else if (key.equals("GET /subjects/" + SUBJECT + "/versions/latest")) {
            reply(x, 200, Map.of("subject", SUBJECT, "id", 21, "version", 1, "schema", schemas.get(21)));
        } else if (key.equals("POST /compatibility/subjects/" + SUBJECT + "/versions/latest")) {
            reply(x, 200, Map.of("is_compatible", !incompatible));
        } else {
            reply(x, 404, Map.of("error_code", 404, "message", "HTTP 404 Not Found"));
        }
    }

    static void reply(HttpExchange x, int status, Map<String, Object> body) throws IOException {
        byte[] b = JSON.writeValueAsBytes(body);
        x.getResponseHeaders().add("Content-Type", ConfluentSchemaRegistryClient.CONTENT_TYPE);
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
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
        assertEquals(2, calls.get("GET /schemas/ids/21").get(), "the second lookup of an ID is served from the cache");
        assertEquals(21, client(false).bySubjectVersion(SUBJECT, "latest").getKey());
        assertTrue(client(false).isCompatible(SUBJECT, envelope));
    }

    @Test
    void autoRegisterRegistersAnUnknownSchema() {
        assertEquals(21, client(true).idOf(SUBJECT, Envelope.getClassSchema()));
        assertEquals(1, calls.get("POST /subjects/" + SUBJECT + "/versions").get());
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
        incompatible = true;
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, Envelope.getClassSchema()));
        assertEquals(409, e.status());
        assertEquals(1, calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "a 4xx is not retried");
        assertEquals(false, client(false).isCompatible(SUBJECT, Envelope.getClassSchema()));
        incompatible = false;
        Schema broken = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"broken\",\"fields\":[]}");
        ConfluentSchemaRegistryClient.RegistryException invalid = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, broken));
        assertEquals(422, invalid.status());
        assertEquals(42201, invalid.errorCode());
    }

    @Test
    void storeErrorsAreRetriedABoundedNumberOfTimes() {
        storeFailures.set(2);
        assertEquals(21, client(false).register(SUBJECT, Envelope.getClassSchema()), "two 50001 answers, then success");
        storeFailures.set(10);
        ConfluentSchemaRegistryClient.RegistryException e = assertThrows(
                ConfluentSchemaRegistryClient.RegistryException.class,
                () -> client(false).register(SUBJECT, Envelope.getClassSchema()));
        assertEquals(50001, e.errorCode());
        assertEquals(3 + 3, calls.get("POST /subjects/" + SUBJECT + "/versions").get(), "3 attempts each");
    }

    @Test
    void anUnreachableRegistryIsAClearError() {
        server.stop(0);
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> new ConfluentSchemaRegistryClient(url(), Duration.ofMillis(500), 2, false)
                        .register(SUBJECT, Envelope.getClassSchema()));
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
    }
}
