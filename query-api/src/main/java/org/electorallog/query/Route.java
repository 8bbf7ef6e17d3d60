package org.electorallog.query;

import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One endpoint as the server registers it and as docs (query-api/src/main/resources/openapi.json)
 * must describe it; {@code OpenApiDocumentTest} fails when the two differ.
 *
 * @param method    the HTTP method
 * @param path      the Javalin path ({@code {name}} a path parameter, {@code <name>} one that spans slashes)
 * @param query     the query parameters it reads
 * @param statuses  every status it answers with (errors as RFC 9457 problems)
 * @param body      the record of its JSON body ({@link Responses}), or null when the body is not JSON
 * @param mediaType the media type of its 2xx body
 * @param handler   what it does
 * @param hint      what the 400 for a parameter it does not take adds, or null
 * @param audience  the least role that may call it (docs/security.md)
 */
record Route(
        HandlerType method,
        String path,
        List<String> query,
        List<Integer> statuses,
        Class<?> body,
        String mediaType,
        Handler handler,
        String hint,
        Role audience) {
    Route {
        query = List.copyOf(query);
        statuses = List.copyOf(statuses);
    }

    /**
     * Every status the route can answer: its own, 401 for credentials that do not hold and 429 for
     * a client past its refused tokens or its route class's rate (any route, {@link Gate}), and 503
     * where it reads the projection (under /boards and /admin/: until the schema is the one this
     * build reads, {@link ProjectionSchema}).
     */
    SortedSet<Integer> answers() {
        SortedSet<Integer> all = new TreeSet<>(statuses);
        all.add(401);
        all.add(429);
        if (ProjectionSchema.readsProjection(path)) {
            all.add(503);
        }
        return all;
    }

    /** The same route for callers of at least {@code role}. */
    Route forRole(Role role) {
        return new Route(method, path, query, statuses, body, mediaType, handler, hint, role);
    }

    /** The same route, whose refusal of a parameter it does not take says {@code why}. */
    Route withHint(String why) {
        return new Route(method, path, query, statuses, body, mediaType, handler, why, audience);
    }

    static final String JSON = "application/json";
    static final String TEXT = "text/plain";

    static Route get(String path, Class<?> body, List<String> query, List<Integer> statuses, Handler handler) {
        return new Route(HandlerType.GET, path, query, statuses, body, JSON, handler, null, Role.ANONYMOUS);
    }

    /**
     * The handler the server registers: a query parameter the route does not take is a 400 naming
     * the ones it takes, so {@link #query} is exactly what the route reads (and what the OpenAPI
     * document must list).
     */
    Handler strictHandler() {
        Set<String> taken = Set.copyOf(query);
        return ctx -> {
            for (String name : ctx.queryParamMap().keySet()) {
                if (!taken.contains(name)) {
                    throw ApiException.badRequest((hint == null ? "" : hint + ": ") + "unknown parameter '"
                            + QueryParameters.shown(name) + "'; "
                            + (query.isEmpty()
                                    ? "this endpoint takes none"
                                    : "this endpoint takes " + new TreeSet<>(query)));
                }
            }
            handler.handle(ctx);
        };
    }

    /** The OpenAPI form of the path: {@code <name>} written as {@code {name}}. */
    String openApiPath() {
        return path.replace('<', '{').replace('>', '}');
    }
}
