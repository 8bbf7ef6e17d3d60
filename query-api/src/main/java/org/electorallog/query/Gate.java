package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What every request passes before its route runs: the caller is recognised ({@link Authenticator});
 * a caller below the route's audience gets 401 when anonymous and 403 otherwise; anonymous requests
 * to an endpoint that reads the database, and every request to a proof endpoint, count against the
 * per-client rate limit, where the client is the address that reached the first trusted proxy.
 */
final class Gate {
    /** The public proof endpoints, which the rate limit covers for every caller. */
    static final Pattern PROOF_PATH = Pattern.compile("/boards/[^/]+/(records/[^/]+/(proof|proof-bundle)|consistency)");

    private final Authenticator authenticator;
    private final ProofRateLimit limit;
    private final int perMinute;
    private final List<String> trustedProxies;

    Gate(Authenticator authenticator, ProofRateLimit limit, int perMinute, List<String> trustedProxies) {
        this.authenticator = authenticator;
        this.limit = limit;
        this.perMinute = perMinute;
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    /** The route's handler behind the gate. */
    Handler guard(Route route) {
        Handler inner = route.strictHandler();
        return ctx -> {
            Caller caller = authenticator.caller(ctx);
            ctx.attribute(Caller.ATTRIBUTE, caller);
            if (!caller.covers(route.audience())) {
                if (!caller.authenticated()) {
                    throw Authenticator.unauthorized(
                            ctx,
                            route.audience().claimValue()
                                    + " credentials are needed: 'Authorization: Bearer <token>' (docs/security.md)");
                }
                throw new ApiException(
                        Problem.Type.FORBIDDEN,
                        "this endpoint is for the "
                                + route.audience().claimValue() + " role or above; these credentials carry "
                                + caller.role().claimValue());
            }
            boolean readsDatabase = ctx.path().startsWith("/boards");
            if (PROOF_PATH.matcher(ctx.path()).matches() || (!caller.authenticated() && readsDatabase)) {
                limit.check(client(ctx), perMinute, ctx);
            }
            inner.handle(ctx);
        };
    }

    /** The caller of a request (the gate put it there). */
    static Caller caller(Context ctx) {
        Caller c = ctx.attribute(Caller.ATTRIBUTE);
        return c == null ? Caller.ANONYMOUS : c;
    }

    /**
     * The client's address: the connection's, or, when that is a trusted proxy, the last address of
     * {@code X-Forwarded-For} that is not a trusted proxy (proxies append; only theirs is believed).
     */
    String client(Context ctx) {
        String address = ctx.req().getRemoteAddr();
        if (!trustedProxies.contains(address)) {
            return address;
        }
        String forwarded = ctx.header("X-Forwarded-For");
        if (forwarded == null || forwarded.isBlank()) {
            return address;
        }
        String[] hops = forwarded.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
                return hop;
            }
        }
        return address;
    }
}
