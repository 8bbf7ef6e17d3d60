package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;

/**
 * CORS for the public endpoints only: an allowed Origin gets Access-Control-Allow-Origin (and, on a
 * preflight, the allowed methods and headers); admin endpoints never answer cross-origin.
 */
final class Cors {
    private final List<String> allowed;

    Cors(List<String> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    void apply(Context ctx) {
        String origin = ctx.header("Origin");
        boolean publicPath = ctx.path().startsWith("/boards/")
                || ctx.path().equals("/boards")
                || ctx.path().equals("/openapi.json");
        if (origin == null || !publicPath || allowed.isEmpty()) {
            return;
        }
        if (allowed.contains("*") || allowed.contains(origin)) {
            ctx.header("Access-Control-Allow-Origin", allowed.contains("*") ? "*" : origin);
            ctx.header("Vary", "Origin");
            if (HandlerType.OPTIONS.equals(ctx.method())) {
                ctx.header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
                ctx.header("Access-Control-Allow-Headers", "Content-Type");
                ctx.header("Access-Control-Max-Age", "600");
            }
        }
    }

    /** A preflight: 204 when the origin was allowed above, else 403. */
    static void preflight(Context ctx) {
        ctx.status(ctx.res().getHeader("Access-Control-Allow-Origin") != null ? 204 : 403);
    }
}
