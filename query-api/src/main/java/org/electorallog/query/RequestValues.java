package org.electorallog.query;

import io.javalin.http.Context;
import org.electorallog.schemas.BoardName;

/** The path and query values routes share, validated: a bad one is a 400 naming the value and its form. */
final class RequestValues {
    private RequestValues() {}

    static String board(Context ctx) {
        String b = ctx.pathParam("board");
        if (!BoardName.isValid(b)) {
            throw ApiException.badRequest(
                    "board name '" + QueryParameters.shown(b) + "' is not valid: [a-z0-9][a-z0-9._-]{0,63}");
        }
        return b;
    }

    static long id(Context ctx) {
        return QueryParameters.number("record ID", ctx.pathParam("id"));
    }

    static Long optionalNumber(Context ctx, String name) {
        String v = ctx.queryParam(name);
        return v == null ? null : QueryParameters.number(name, v);
    }

    /** A text filter: at most 256 characters, no control characters; matched by equality, never as a pattern. */
    static String text(Context ctx, String name, boolean required) {
        String v = QueryParameters.text(name, ctx.queryParam(name));
        if (v == null && required) {
            throw ApiException.badRequest(name + " is required");
        }
        return v;
    }

    static int limit(Context ctx) {
        String v = ctx.queryParam("limit");
        return v == null ? 100 : (int) QueryParameters.bounded("limit", v, 1, 1000);
    }
}
