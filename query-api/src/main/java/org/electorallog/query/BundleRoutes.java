package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;
import org.electorallog.core.TilePath;

/**
 * The C2SP tlog-tiles entry bundles of a board and the signature bundles beside them (core
 * SignatureBundle): anyone's when no entry holds a personal value in the clear, the committed form
 * (docs/personal-data.md "What each role sees", decision 119); observers' otherwise.
 */
final class BundleRoutes {
    private final PublicReads reader;

    BundleRoutes(PublicReads reader) {
        this.reader = reader;
    }

    List<Route> routes() {
        return List.of(
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/tile/entries/<path>",
                        List.of(),
                        List.of(200, 400, 401, 403, 404),
                        null,
                        "application/octet-stream",
                        this::entries,
                        null,
                        Role.ANONYMOUS),
                new Route(
                        HandlerType.GET,
                        "/boards/{board}/signatures/<path>",
                        List.of(),
                        List.of(200, 400, 401, 403, 404),
                        null,
                        "application/octet-stream",
                        this::signatures,
                        null,
                        Role.ANONYMOUS));
    }

    /** An entry bundle: the canonical statements of records [256N, 256N + W). */
    private void entries(Context ctx) {
        TilePath t = bundlePath(ctx);
        serve(ctx, reader.entries(RequestValues.board(ctx), t.index(), t.width()));
    }

    /**
     * The signatures of an entry bundle's records, at the entry bundle's N and W: readable by
     * whoever may read the entries they sign.
     */
    private void signatures(Context ctx) {
        TilePath t = bundlePath(ctx);
        serve(ctx, reader.signatures(RequestValues.board(ctx), t.index(), t.width()));
    }

    /** The {@code N[.p/W]} of an entry bundle (C2SP tlog-tiles), which its signature bundle shares. */
    private static TilePath bundlePath(Context ctx) {
        try {
            return TilePath.parse("tile/entries/" + ctx.pathParam("path"));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(
                    "not an entry bundle path (N[.p/W], C2SP tlog-tiles tile/entries/): " + e.getMessage());
        }
    }

    /**
     * A bundle for this caller (docs/security.md): to anyone when no entry holds a personal value
     * in the clear (cached publicly; a bundle never changes once it exists), else to observers only
     * and never to a shared cache ({@code private}).
     */
    private static void serve(Context ctx, PublicReads.Bundle b) {
        if (!b.open() && !Gate.caller(ctx).covers(Role.OBSERVER)) {
            String why = "this bundle holds statements with personal values in the clear (format 1): observers only;"
                    + " a bundle whose entries are all in the committed form (format 2), or hold no personal value,"
                    + " is public";
            if (!Gate.caller(ctx).authenticated()) {
                throw Authenticator.unauthorized(ctx, why);
            }
            throw new ApiException(Problem.Type.FORBIDDEN, why);
        }
        ctx.header("Cache-Control", (b.open() ? "public" : "private") + ", max-age=31536000, immutable");
        ctx.contentType("application/octet-stream").result(b.body());
    }
}
