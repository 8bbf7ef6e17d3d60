package org.electorallog.query;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per client address: {@code perMinute} tokens a minute, refilled continuously,
 * bursts up to {@code perMinute}. A refused request learns how many seconds until its next token
 * (the 429's Retry-After). Buckets idle for a minute are full again and are dropped when the table
 * grows past 100,000 addresses. {@code perMinute} 0: no limit.
 */
final class ClientBuckets {
    private static final int MAX_CLIENTS = 100_000;
    private final int perMinute;
    private final ConcurrentHashMap<String, long[]> buckets = new ConcurrentHashMap<>();

    ClientBuckets(int perMinute) {
        this.perMinute = perMinute;
    }

    int perMinute() {
        return perMinute;
    }

    /** 0 when the request may go on (a token is taken), else the whole seconds to wait. */
    long acquire(String client, long nowNanos) {
        return seconds(client, nowNanos, true);
    }

    /** 0 when a token is there (none is taken), else the whole seconds to wait for one. */
    long peek(String client, long nowNanos) {
        return seconds(client, nowNanos, false);
    }

    private long seconds(String client, long nowNanos, boolean take) {
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
                if (take) {
                    state[0] -= 1000;
                }
                return 0;
            }
            double nanosToNext = (1000 - state[0]) / 1000.0 * nanosPerToken;
            return Math.max(1, (long) Math.ceil(nanosToNext / 1e9));
        }
    }
}
