package org.electorallog.query;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per client address for the public proof endpoints: {@code perMinute} requests a
 * minute, refilled continuously, bursts up to {@code perMinute}. A refused request learns how many
 * seconds until its next token (the 429's Retry-After). Buckets idle for a minute are full again and
 * are dropped when the table grows past 100,000 addresses.
 */
final class ProofRateLimit {
    private static final int MAX_CLIENTS = 100_000;
    private final int perMinute;
    private final ConcurrentHashMap<String, long[]> buckets = new ConcurrentHashMap<>();

    ProofRateLimit(int perMinute) {
        this.perMinute = perMinute;
    }

    /** Lets the request of {@code client} go on, or refuses it with 429 and Retry-After. */
    void check(String client, int perMinuteShown, io.javalin.http.Context ctx) {
        long wait = acquire(client, System.nanoTime());
        if (wait > 0) {
            ctx.header("Retry-After", Long.toString(wait));
            throw new ApiException(
                    Problem.Type.TOO_MANY_REQUESTS,
                    "at most " + perMinuteShown + " proof requests a minute per client; retry after " + wait + " s");
        }
    }

    /** 0 when the request may go on (a token is taken), else the whole seconds to wait. */
    long acquire(String client, long nowNanos) {
        if (perMinute == 0) {
            return 0;
        }
        if (buckets.size() > MAX_CLIENTS) {
            buckets.entrySet().removeIf(e -> nowNanos - e.getValue()[1] > 60_000_000_000L);
        }
        double nanosPerToken = 60_000_000_000.0 / perMinute;
        long[] state = buckets.computeIfAbsent(client, c -> new long[] {perMinute * 1000L, nowNanos});
        synchronized (state) {
            // state[0]: tokens in thousandths; state[1]: when they were counted
            long refill = (long) ((nowNanos - state[1]) / nanosPerToken * 1000);
            state[0] = Math.min(perMinute * 1000L, state[0] + refill);
            state[1] = nowNanos;
            if (state[0] >= 1000) {
                state[0] -= 1000;
                return 0;
            }
            double nanosToNext = (1000 - state[0]) / 1000.0 * nanosPerToken;
            return Math.max(1, (long) Math.ceil(nanosToNext / 1e9));
        }
    }
}
