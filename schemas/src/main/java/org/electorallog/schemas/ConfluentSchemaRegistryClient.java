package org.electorallog.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * A client of the Confluent Schema Registry REST API (any compatible registry), written on
 * {@code java.net.http} because Confluent's client jars are not on Maven Central: register a schema
 * under a subject, look one up by ID and by subject and version, check compatibility. Answers are
 * cached (an ID's schema never changes); requests time out; I/O errors and 5xx answers (including
 * error code 50001, a backend store error) are retried a bounded number of times with backoff.
 */
public final class ConfluentSchemaRegistryClient implements SchemaRegistry {
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http;
    private final Duration timeout;
    private final int attempts;
    private final boolean autoRegister;
    private final Map<Integer, Schema> byId = new ConcurrentHashMap<>();
    private final Map<String, Integer> idBySubjectAndFingerprint = new ConcurrentHashMap<>();

    /**
     * @param baseUrl      e.g. {@code http://registry:8081}
     * @param timeout      per request
     * @param attempts     tries per request for retryable failures (at least 1)
     * @param autoRegister whether {@link #idOf} registers a schema the subject does not have yet
     */
    public ConfluentSchemaRegistryClient(String baseUrl, Duration timeout, int attempts, boolean autoRegister) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.timeout = timeout;
        this.attempts = attempts;
        this.autoRegister = autoRegister;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** An error answer of the registry: HTTP status, Confluent error code and message. */
    public static final class RegistryException extends RuntimeException {
        private final int status;
        private final int errorCode;

        RegistryException(int status, int errorCode, String message) {
            super("schema registry answered " + status + " (error " + errorCode + "): " + message);
            this.status = status;
            this.errorCode = errorCode;
        }

        public int status() {
            return status;
        }

        /** 40401 subject not found, 40402 version not found, 40403 schema not found, 409 incompatible, 42201 invalid schema, 50001 store error ... */
        public int errorCode() {
            return errorCode;
        }
    }

    /** Registers {@code schema} under {@code subject} (idempotent) and returns its ID. */
    public int register(String subject, Schema schema) {
        JsonNode r = call("POST", "/subjects/" + enc(subject) + "/versions", body(schema));
        int id = r.get("id").asInt();
        remember(subject, schema, id);
        return id;
    }

    @Override
    public int idOf(String subject, Schema schema) {
        String key = subject + "\u0000" + SchemaNormalization.parsingFingerprint64(schema);
        Integer cached = idBySubjectAndFingerprint.get(key);
        if (cached != null) {
            return cached;
        }
        try {
            JsonNode r = call("POST", "/subjects/" + enc(subject), body(schema));
            int id = r.get("id").asInt();
            remember(subject, schema, id);
            return id;
        } catch (RegistryException e) {
            if ((e.errorCode() == 40401 || e.errorCode() == 40403) && autoRegister) {
                return register(subject, schema);
            }
            throw e;
        }
    }

    @Override
    public Schema byId(int id) throws UnknownSchemaException {
        Schema cached = byId.get(id);
        if (cached != null) {
            return cached;
        }
        try {
            JsonNode r = call("GET", "/schemas/ids/" + id, null);
            Schema s = avroSchema(id, r);
            byId.put(id, s);
            return s;
        } catch (RegistryException e) {
            if (e.errorCode() == 40403 || e.status() == 404) {
                throw new UnknownSchemaException(id, e.getMessage());
            }
            throw e;
        }
    }

    /**
     * The Avro schema of a {@code GET /schemas/ids/<id>} answer. A registry holds JSON Schema and
     * Protobuf schemas too ({@code schemaType}, absent for Avro); an event framed with the ID of one
     * of those, or of text Avro cannot parse, is the event's fault (issue 41 item 5): unknown here,
     * so dead-lettered as UNKNOWN_SCHEMA, never an exception on the stream thread.
     */
    static Schema avroSchema(int id, JsonNode answer) throws UnknownSchemaException {
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new UnknownSchemaException(
                    id,
                    "the registry's schema " + id + " is a " + type
                            + " schema, not Avro: events must be framed with the ID of an Avro schema");
        }
        JsonNode text = answer.get("schema");
        if (text == null || !text.isTextual()) {
            throw new UnknownSchemaException(id, "the registry's answer for schema " + id + " has no schema text");
        }
        try {
            return new Schema.Parser().parse(text.asText());
        } catch (RuntimeException e) {
            throw new UnknownSchemaException(
                    id, "the registry's schema " + id + " is not a valid Avro schema: " + e.getMessage());
        }
    }

    /** The schema registered under {@code subject} at {@code version} ("latest" or a number), with its ID. */
    public Map.Entry<Integer, Schema> bySubjectVersion(String subject, String version) {
        JsonNode r = call("GET", "/subjects/" + enc(subject) + "/versions/" + enc(version), null);
        Schema s = new Schema.Parser().parse(r.get("schema").asText());
        int id = r.get("id").asInt();
        byId.putIfAbsent(id, s);
        return Map.entry(id, s);
    }

    /** Whether {@code schema} is compatible with the latest version under {@code subject}. */
    public boolean isCompatible(String subject, Schema schema) {
        JsonNode r = call("POST", "/compatibility/subjects/" + enc(subject) + "/versions/latest", body(schema));
        return r.get("is_compatible").asBoolean();
    }

    /** The levels at which a new envelope must still read every event already written. */
    public static final Set<String> SAFE_LEVELS = Set.of("BACKWARD", "BACKWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    /**
     * The compatibility level that applies to {@code subject}: its own, or the registry's global
     * one when the subject has none (a registry answers 404 for a subject without a level of its own).
     */
    public String compatibility(String subject) {
        try {
            return call("GET", "/config/" + enc(subject), null)
                    .get("compatibilityLevel")
                    .asText();
        } catch (RegistryException e) {
            if (e.status() != 404) {
                throw e;
            }
            return call("GET", "/config", null).get("compatibilityLevel").asText();
        }
    }

    /**
     * What a projector says at start when {@code level} lets an envelope register that old events
     * cannot be read with (issue 67: a registry starts at NONE, and nothing else warns); null at a
     * level of {@link #SAFE_LEVELS}.
     */
    public static String compatibilityWarning(String subject, String level) {
        if (SAFE_LEVELS.contains(level)) {
            return null;
        }
        return "the schema registry's compatibility level for " + subject + " is " + level + ", below BACKWARD: "
                + "an envelope that cannot read the events already written could be registered; set it with "
                + "PUT /config/" + subject + " {\"compatibility\": \"BACKWARD\"} (docs/operations.md)";
    }

    private void remember(String subject, Schema schema, int id) {
        idBySubjectAndFingerprint.put(subject + "\u0000" + SchemaNormalization.parsingFingerprint64(schema), id);
        byId.putIfAbsent(id, schema);
    }

    private static String body(Schema schema) {
        try {
            return JSON.writeValueAsString(Map.of("schema", schema.toString()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode call(String method, String path, String body) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(timeout)
                    .header("Accept", CONTENT_TYPE + ", application/json");
            if (body == null) {
                b.GET();
            } else {
                b.header("Content-Type", CONTENT_TYPE).method(method, HttpRequest.BodyPublishers.ofString(body));
            }
            try {
                HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() / 100 == 2) {
                    return JSON.readTree(r.body());
                }
                RegistryException e = error(r);
                if (r.statusCode() < 500) {
                    throw e;
                }
                last = e;
            } catch (IOException e) {
                last = new IllegalStateException(
                        "schema registry at " + baseUrl + " did not answer " + method + " " + path + ": " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while calling the schema registry", e);
            }
            if (attempt < attempts) {
                try {
                    Thread.sleep(Math.min(2000L, 100L << (attempt - 1))); // backoff between retries
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while retrying the schema registry", e);
                }
            }
        }
        throw last;
    }

    private static RegistryException error(HttpResponse<String> r) {
        int code = r.statusCode();
        String message = r.body();
        try {
            JsonNode n = JSON.readTree(r.body());
            if (n != null && n.has("error_code")) {
                code = n.get("error_code").asInt();
                message = n.path("message").asText();
            }
        } catch (IOException ignored) {
            // not JSON: keep the raw body as the message
        }
        return new RegistryException(r.statusCode(), code, message);
    }
}
