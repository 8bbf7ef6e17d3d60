package org.electorallog.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every error answer as an RFC 9457 problem ({@link Problem}): a refused request (4xx) with a
 * message the caller can act on, an unknown endpoint, a body too large, and a server failure (500,
 * logged, with no internals in the answer).
 */
final class Problems {
    private static final Logger LOG = LoggerFactory.getLogger(Problems.class);

    private Problems() {}

    static void register(RoutesConfig routes) {
        routes.exception(HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 404) {
                send(ctx, Problem.of(Problem.Type.NOT_FOUND, "no endpoint at " + ctx.path(), ctx.path()));
            } else if (e.getStatus() == 413) {
                send(ctx, Problem.of(Problem.Type.TOO_LARGE, e.getMessage(), ctx.path()));
            } else {
                send(ctx, Problem.refused(e.getStatus(), e.getMessage(), ctx.path()));
            }
        });
        routes.exception(ApiException.class, (e, ctx) -> {
            ctx.header("Cache-Control", "no-store");
            send(ctx, Problem.of(e.type(), e.getMessage(), ctx.path()));
        });
        routes.exception(Exception.class, (e, ctx) -> {
            LOG.error("request {} {} failed", ctx.method(), ctx.path(), e);
            send(
                    ctx,
                    Problem.of(Problem.Type.INTERNAL, "the server failed to answer; the error is logged", ctx.path()));
        });
        routes.error(404, ctx -> {
            String type = ctx.res().getContentType();
            if (type == null || !type.startsWith(Problem.MEDIA_TYPE)) {
                send(ctx, Problem.of(Problem.Type.NOT_FOUND, "no endpoint at " + ctx.path(), ctx.path()));
            }
        });
    }

    static void send(Context ctx, Problem p) {
        ctx.status(p.status()).contentType(Problem.MEDIA_TYPE).result(write(p));
    }

    private static String write(Problem p) {
        try {
            return Responses.JSON.writeValueAsString(p);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem body could not be written", e);
        }
    }
}
