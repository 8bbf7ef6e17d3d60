package org.electorallog.query;

import io.javalin.http.Context;
import java.util.Base64;
import java.util.HexFormat;
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

    /** A delivery ID from the path: 1 to 256 characters, no control characters. */
    static String deliveryId(Context ctx) {
        // a query parameter, not a path segment: a delivery ID may hold '/', which a path would
        // have to carry as %2F, and Jetty refuses an encoded separator in a path
        String v = QueryParameters.text("delivery_id", ctx.queryParam("delivery_id"));
        if (v == null || v.isEmpty()) {
            throw ApiException.badRequest("delivery_id is required");
        }
        return v;
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

    /**
     * A required SHA-256 hash: standard or URL-safe base64 (padding optional; in a query string a
     * standard {@code +} must be sent as {@code %2B}), or 64 hex digits.
     */
    static byte[] hash(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            throw ApiException.badRequest(name + " is required: the 32-byte hash, base64 or 64 hex digits");
        }
        String t = v.strip();
        byte[] out = null;
        if (t.length() == 64 && t.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            out = HexFormat.of().parseHex(t);
        } else {
            try {
                out = Base64.getDecoder().decode(t);
            } catch (IllegalArgumentException e) {
                try {
                    out = Base64.getUrlDecoder().decode(t);
                } catch (IllegalArgumentException e2) {
                    out = null;
                }
            }
        }
        if (out == null || out.length != 32) {
            throw ApiException.badRequest(name + " '" + QueryParameters.shown(t) + "' is not a 32-byte hash in base64 "
                    + "or 64 hex digits" + (t.contains(" ") ? " (a '+' in a query string must be sent as %2B)" : ""));
        }
        return out;
    }

    static int limit(Context ctx) {
        String v = ctx.queryParam("limit");
        return v == null ? 100 : (int) QueryParameters.bounded("limit", v, 1, 1000);
    }
}
