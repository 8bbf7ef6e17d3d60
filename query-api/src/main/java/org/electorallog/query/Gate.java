package org.electorallog.query;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.EnumMap;
import java.util.Map;

/**
 * What every request passes before its route runs: a client past its refused bearer tokens gets
 * 429 before its token is even checked; the caller is recognised ({@link Authenticator}), a refusal
 * counting against the client; a caller below the route's audience gets 401 when anonymous and 403
 * otherwise; then the request counts against its route's {@link RateClass}, whatever the caller's
 * role and however it spelled the path (issue 41). The client is the address that reached the
 * first trusted proxy ({@link TrustedProxies}).
 */
final class Gate {
    private final Authenticator authenticator;
    private final Map<RateClass, ClientBuckets> limits = new EnumMap<>(RateClass.class);
    private final ClientBuckets failedAuth;
    private final TrustedProxies trustedProxies;

    Gate(Authenticator authenticator, RatePolicy policy, TrustedProxies trustedProxies) {
        this.authenticator = authenticator;
        for (RateClass c : RateClass.values()) {
            limits.put(c, new ClientBuckets(policy.perMinute(c)));
        }
        this.failedAuth = new ClientBuckets(policy.failedAuth());
        this.trustedProxies = trustedProxies;
    }

    /** The route's handler behind the gate. */
    Handler guard(Route route) {
        Handler inner = route.strictHandler();
        RateClass rateClass = RateClass.of(route);
        ClientBuckets limit = limits.get(rateClass);
        return ctx -> {
            String client = client(ctx);
            Caller caller = authenticate(ctx, client);
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
            long wait = limit.acquire(client, System.nanoTime());
            if (wait > 0) {
                throw tooMany(
                        ctx,
                        wait,
                        "at most " + limit.perMinute() + " " + rateClass.label() + " requests a minute per client");
            }
            inner.handle(ctx);
        };
    }

    /** The caller; a refused token counts against the client, and past the limit none is checked. */
    private Caller authenticate(Context ctx, String client) {
        if (ctx.header("Authorization") != null) {
            long wait = failedAuth.peek(client, System.nanoTime());
            if (wait > 0) {
                throw tooMany(
                        ctx, wait, "at most " + failedAuth.perMinute() + " refused bearer tokens a minute per client");
            }
        }
        try {
            return authenticator.caller(ctx);
        } catch (ApiException e) {
            if (e.type() == Problem.Type.UNAUTHORIZED) {
                long ignored = failedAuth.acquire(client, System.nanoTime());
            }
            throw e;
        }
    }

    private static ApiException tooMany(Context ctx, long wait, String what) {
        ctx.header("Retry-After", Long.toString(wait));
        return new ApiException(Problem.Type.TOO_MANY_REQUESTS, what + "; retry after " + wait + " s");
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
