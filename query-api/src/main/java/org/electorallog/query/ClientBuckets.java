package org.electorallog.query;

import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket per client: {@code perMinute} tokens a minute, refilled continuously, bursts up to
 * {@code perMinute}. A client is an IPv4 address, or an IPv6 address's /64 network (issue 61: one
 * host is handed a whole /64, so keying each IPv6 address apart gave it 2^64 buckets); an
 * IPv4-mapped IPv6 address is its IPv4 address. A refused request learns how many seconds until
 * its next token (the 429's Retry-After). Buckets idle for a minute are full again; once the table
 * holds more than 100,000 clients they are dropped, by one request at most once a second, so a
 * flood of new clients does not make every request walk the table. {@code perMinute} 0: no limit.
 */
final class ClientBuckets {
    static final int MAX_CLIENTS = 100_000;
    private static final long IDLE_NANOS = 60_000_000_000L;
    private static final long SWEEP_EVERY_NANOS = 1_000_000_000L;
    private final int perMinute;
    private final ConcurrentHashMap<String, long[]> buckets = new ConcurrentHashMap<>();
    /** When the idle buckets were last dropped (nanoTime), and how often that happened. */
    private final AtomicLong lastSweep = new AtomicLong(Long.MIN_VALUE);

    private final AtomicLong sweeps = new AtomicLong();

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
            long last = lastSweep.get();
            if ((last == Long.MIN_VALUE || nowNanos - last >= SWEEP_EVERY_NANOS)
                    && lastSweep.compareAndSet(last, nowNanos)) {
                sweeps.incrementAndGet();
                buckets.entrySet().removeIf(e -> nowNanos - e.getValue()[1] > IDLE_NANOS);
            }
        }
        double nanosPerToken = 60_000_000_000.0 / perMinute;
        long[] state = buckets.computeIfAbsent(keyOf(client), c -> new long[] {perMinute * 1000L, nowNanos});
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

    /**
     * The bucket a client address counts against: an IPv4 address as it is, an IPv6 address's
     * first 64 bits ({@code 2001:db8:1:2::/64} for {@code 2001:db8:1:2::9}), an IPv4-mapped IPv6
     * address as its IPv4 address; a forwarded hop that is no IP literal counts as its text.
     * Never a name lookup ({@link TrustedProxies#literal}).
     */
    static String keyOf(String client) {
        byte[] a = TrustedProxies.literal(client);
        if (a == null) {
            return client;
        }
        if (a.length == 4) {
            return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
        }
        return HexFormat.of().formatHex(a, 0, 8) + "::/64";
    }

    /** How many clients hold a bucket now. */
    int clients() {
        return buckets.size();
    }

    /** How many times the idle buckets were dropped. */
    long sweeps() {
        return sweeps.get();
    }
}
