package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document the server serves cannot drift from the server: every route the server
 * registers (read from Javalin's router) is in the route table and documented with exactly its
 * path and query parameters, its statuses and its media type; every JSON body's schema lists exactly
 * the properties of the record the server serialises (nested records too); every error is an RFC
 * 9457 problem (but readiness, which answers 503 with its own body); and the document holds no
 * operation the server does not have.
 */
class OpenApiDocumentTest {
    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE =
            new PropertyNamingStrategies.SnakeCaseStrategy();
    private static JsonNode doc;
    private static List<Route> routes;

    @BeforeAll
    static void load() throws Exception {
        AdminTest.start();
        HttpResponse<String> r = QueryApiTest.HTTP.send(
                HttpRequest.newBuilder(URI.create(AdminTest.admin.baseUrl() + "/openapi.json"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        doc = QueryApiTest.JSON.readTree(r.body());
        routes = AdminTest.admin.routes();
    }

    @Test
    void theServerRegistersExactlyTheRouteTable() {
        Set<String> table = new TreeSet<>();
        routes.forEach(r -> table.add(r.method().name() + " " + r.path()));
        QueryApi.PREFLIGHT_PATHS.forEach(p -> table.add("OPTIONS " + p));
        assertEquals(table, new TreeSet<>(AdminTest.admin.registeredEndpoints()));
    }

    @Test
    void everyRouteIsDocumentedAndNothingElse() {
        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            p.getValue()
                    .fieldNames()
                    .forEachRemaining(m -> documented.add(m.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey()));
        }
        Set<String> served = new TreeSet<>();
        routes.forEach(r -> served.add(r.method().name() + " " + r.openApiPath()));
        assertEquals(served, documented, "operations served vs documented");
    }

    @Test
    void parametersStatusesAndBodiesMatch() {
        List<String> differences = new ArrayList<>();
        for (Route r : routes) {
            String where = r.method().name() + " " + r.openApiPath();
            JsonNode op =
                    doc.get("paths").get(r.openApiPath()).get(r.method().name().toLowerCase(java.util.Locale.ROOT));
            Set<String> pathParams = new TreeSet<>();
            Set<String> queryParams = new TreeSet<>();
            for (JsonNode p : op.path("parameters")) {
                JsonNode param = resolve(p);
                (param.get("in").asText().equals("path") ? pathParams : queryParams)
                        .add(param.get("name").asText());
            }
            Set<String> expectedPath = new TreeSet<>();
            Matcher m = Pattern.compile("\\{([a-z_]+)}").matcher(r.openApiPath());
            while (m.find()) {
                expectedPath.add(m.group(1));
            }
            check(differences, where + " path parameters", expectedPath, pathParams);
            check(differences, where + " query parameters", new TreeSet<>(r.query()), queryParams);
            Set<String> statuses = new TreeSet<>();
            op.get("responses").fieldNames().forEachRemaining(statuses::add);
            Set<String> expectedStatuses = new TreeSet<>();
            r.answers().forEach(s -> expectedStatuses.add(Integer.toString(s)));
            check(differences, where + " statuses", expectedStatuses, statuses);
            for (int status : r.answers()) {
                JsonNode response = resolve(op.get("responses").path(Integer.toString(status)));
                if (response.isMissingNode()) {
                    continue;
                }
                // a readiness probe's 503 is its health body; every other error is a problem
                if (status >= 400 && !(status == 503 && r.body() == Responses.Health.class)) {
                    JsonNode schema =
                            response.path("content").path(Problem.MEDIA_TYPE).path("schema");
                    if (!schema.path("$ref").asText().equals("#/components/schemas/Problem")) {
                        differences.add(where + " " + status + ": not an RFC 9457 problem (" + response + ")");
                    }
                } else if (status < 300 || r.body() != null) {
                    JsonNode content = response.path("content").path(r.mediaType());
                    if (content.isMissingNode()) {
                        differences.add(where + " " + status + ": no " + r.mediaType() + " content documented");
                    } else if (r.body() != null) {
                        String ref = content.path("schema").path("$ref").asText();
                        if (!ref.equals("#/components/schemas/" + r.body().getSimpleName())) {
                            differences.add(where + " " + status + ": schema " + ref + ", served "
                                    + r.body().getSimpleName());
                        }
                    }
                }
            }
            if (r.body() != null) {
                checkSchema(differences, r.body());
            }
            String security = op.path("security").toString();
            boolean required = security.contains("bearer") && !security.contains("{}");
            if ((r.audience() != Role.ANONYMOUS) != required) {
                differences.add(where + ": for " + r.audience().claimValue() + " and above, but a bearer token is "
                        + (required ? "documented as required" : "not documented as required"));
            }
            if (r.audience() != Role.ANONYMOUS
                    && !(r.statuses().contains(401) && r.statuses().contains(403))) {
                differences.add(where + ": a route for " + r.audience().claimValue() + " answers 401 and 403");
            }
        }
        checkSchema(differences, Problem.class);
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    /** A record's documented schema lists exactly its JSON properties; nested records are checked the same way. */
    private static void checkSchema(List<String> differences, Class<?> record) {
        JsonNode schema = doc.path("components").path("schemas").path(record.getSimpleName());
        if (schema.isMissingNode()) {
            differences.add("no schema " + record.getSimpleName());
            return;
        }
        Set<String> expected = new TreeSet<>();
        for (RecordComponent c : components(record)) {
            String name = SNAKE.translate(c.getName());
            expected.add(name);
            JsonNode property = schema.path("properties").path(name);
            Class<?> nested = nestedRecord(c.getGenericType());
            if (nested != null) {
                String ref = property.path("$ref")
                        .asText(property.path("items")
                                .path("$ref")
                                .asText(property.path("additionalProperties")
                                        .path("$ref")
                                        .asText()));
                if (!ref.equals("#/components/schemas/" + nested.getSimpleName())) {
                    differences.add(record.getSimpleName() + "." + name + ": documented " + property + ", served "
                            + nested.getSimpleName());
                }
                checkSchema(differences, nested);
            }
        }
        Set<String> documented = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(documented::add);
        check(differences, "schema " + record.getSimpleName(), expected, documented);
    }

    /** A record's serialised components, with those of a {@code @JsonUnwrapped} component in its place. */
    private static List<RecordComponent> components(Class<?> record) {
        List<RecordComponent> out = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) {
            if (c.getAccessor().isAnnotationPresent(com.fasterxml.jackson.annotation.JsonUnwrapped.class)) {
                out.addAll(components(c.getType()));
            } else {
                out.add(c);
            }
        }
        return out;
    }

    private static Class<?> nestedRecord(Type t) {
        if (t instanceof Class<?> c) {
            return c.isRecord() ? c : null;
        }
        if (t instanceof ParameterizedType p) {
            Type[] args = p.getActualTypeArguments();
            return nestedRecord(args[args.length - 1]);
        }
        return null;
    }

    private static JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText("");
        if (ref.isEmpty()) {
            return node;
        }
        JsonNode target = doc;
        for (String part : ref.substring(2).split("/")) {
            target = target.path(part);
        }
        return target;
    }

    private static void check(List<String> differences, String what, Set<String> served, Set<String> documented) {
        if (!served.equals(documented)) {
            differences.add(what + ": served " + served + ", documented " + documented);
        }
    }
}
