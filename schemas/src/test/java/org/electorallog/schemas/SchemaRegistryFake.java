package org.electorallog.schemas;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * A Confluent Schema Registry fake for tests: an HTTP server that answers with the Confluent Schema
 * Registry's documented bodies and error codes (40401, 40403, 409, 42201 with status 422, 50001).
 */
public final class SchemaRegistryFake implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    public static final String SUBJECT = "electoral-log.events-value";
    private final HttpServer server;
    public final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final Map<Integer, String> schemas = new ConcurrentHashMap<>();
    /** The schemaType of IDs that are not Avro (JSON, PROTOBUF); absent means Avro, as the registry answers. */
    final Map<Integer, String> types = new ConcurrentHashMap<>();

    final AtomicInteger storeFailures = new AtomicInteger();
    volatile boolean incompatible;

    /** Starts the fake on a free loopback port. */
    public SchemaRegistryFake() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * Stores {@code schema} under {@code id} as the registry would any subject's schema of that type
     * ({@code AVRO}, {@code JSON}, {@code PROTOBUF}).
     */
    public void put(int id, String schema, String schemaType) {
        schemas.put(id, schema);
        if (!schemaType.equals("AVRO")) {
            types.put(id, schemaType);
        }
    }

    /** Its base URL. */
    public String url() {
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
            if (!schemas.containsKey(21)) {
                reply(x, 404, Map.of("error_code", 40401, "message", "Subject '" + SUBJECT + "' not found."));
            } else if (!new Schema.Parser().parse(schemas.get(21)).equals(new Schema.Parser().parse(schema))) {
                reply(x, 404, Map.of("error_code", 40403, "message", "Schema not found"));
            } else {
                reply(x, 200, Map.of("subject", SUBJECT, "id", 21, "version", 1, "schema", schemas.get(21)));
            }
        } else if (path.startsWith("/schemas/ids/")) {
            int id = Integer.parseInt(path.substring("/schemas/ids/".length()));
            if (types.containsKey(id)) {
                reply(x, 200, Map.of("schema", schemas.get(id), "schemaType", types.get(id)));
            } else if (schemas.containsKey(id)) {
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
}
