package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.electorallog.store.Projection;

/** Health, metrics, the log's verifier keys and the OpenAPI document: unauthenticated, no data of any board. */
final class OperationsRoutes {
    private static final String OPENAPI = openApi();

    private final Projection db;
    private final QueryApiSettings settings;
    private final HttpMetrics metrics;
    private final ProjectionSchema schema;

    OperationsRoutes(Projection db, QueryApiSettings settings, HttpMetrics metrics, ProjectionSchema schema) {
        this.db = db;
        this.settings = settings;
        this.metrics = metrics;
        this.schema = schema;
    }

    /** The routes, each with its role. */
    List<Route> routes() {
        return List.of(
                Route.get(
                        "/health",
                        Responses.Health.class,
                        List.of(),
                        List.of(200),
                        ctx -> ctx.json(new Responses.Health("ok", null, null))),
                Route.get(
                        "/health/live",
                        Responses.Health.class,
                        List.of(),
                        List.of(200),
                        ctx -> ctx.json(new Responses.Health("UP", null, null))),
                Route.get("/health/ready", Responses.Health.class, List.of(), List.of(200, 503), ctx -> {
                    boolean up = databaseUp();
                    String behind = up ? schema.problem() : null;
                    boolean ready = up && behind == null;
                    ctx.status(ready ? 200 : 503)
                            .json(new Responses.Health(ready ? "UP" : "DOWN", up ? "UP" : "DOWN", behind));
                }),
                new Route(
                        HandlerType.GET,
                        "/log-keys",
                        List.of(),
                        List.of(200, 404),
                        null,
                        Route.TEXT,
                        this::logKeys,
                        null,
                        Role.ANONYMOUS),
                // with an admin port on loopback, /metrics is there alone (for a scraper on this host, without
                // a token); on any other address (issue 61), and without an admin port, it needs the admin role, so
                // that the public port does not hand every caller a
                // database query per scrape and the pools' state (issue 41)
                new Route(
                        HandlerType.GET,
                        "/metrics",
                        List.of(),
                        List.of(200, 401, 403),
                        null,
                        Route.TEXT,
                        ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                                .result(metrics.scrape()),
                        null,
                        settings.http().adminPort() > 0 && settings.http().adminOnLoopback()
                                ? Role.ANONYMOUS
                                : Role.ADMIN),
                new Route(
                        HandlerType.GET,
                        "/openapi.json",
                        List.of(),
                        List.of(200),
                        null,
                        Route.JSON,
                        ctx -> ctx.contentType("application/json").result(OPENAPI),
                        null,
                        Role.ANONYMOUS));
    }

    /** The log's verifier keys (C2SP signed-note), one a line: what clients verify checkpoints with. */
    private void logKeys(Context ctx) {
        if (settings.logKeys().isEmpty()) {
            throw ApiException.notFound("this instance has no verifier key configured (ELECTORAL_LOG_LOG_KEYS)");
        }
        StringBuilder sb = new StringBuilder();
        settings.logKeys().forEach(k -> sb.append(k.verifierKey()).append('\n'));
        ctx.header("Cache-Control", "public, max-age=300");
        ctx.contentType("text/plain; charset=utf-8").result(sb.toString());
    }

    private boolean databaseUp() {
        return db.reachable(2);
    }

    private static String openApi() {
        try (InputStream in = OperationsRoutes.class.getResourceAsStream("/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document is missing from the query-api jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("the OpenAPI document cannot be read from the query-api jar", e);
        }
    }
}
