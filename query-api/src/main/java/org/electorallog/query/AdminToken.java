package org.electorallog.query;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The bearer-token check of the analyst and admin route groups, in constant time. */
final class AdminToken {
    private final byte[] expected;

    /** {@code token} null: the groups answer 403 (disabled on this instance). */
    AdminToken(String token) {
        this.expected = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    void check(Context ctx) {
        if (expected == null) {
            throw new ApiException(
                    Problem.Type.FORBIDDEN,
                    "the admin endpoints are disabled on this instance (no admin token is configured)");
        }
        String header = ctx.header("Authorization");
        byte[] given = header != null && header.startsWith("Bearer ")
                ? header.substring(7).getBytes(StandardCharsets.UTF_8)
                : new byte[0];
        if (!MessageDigest.isEqual(given, expected)) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"electoral-log admin\"");
            throw new ApiException(
                    Problem.Type.UNAUTHORIZED, "the admin endpoints need 'Authorization: Bearer <admin token>'");
        }
    }
}
