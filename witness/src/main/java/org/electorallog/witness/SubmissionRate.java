package org.electorallog.witness;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How many {@code add-checkpoint} requests the witness takes per log and second (issue 41): a token
 * bucket per origin, {@code perSecond} tokens a second up to {@code burst}. A request beyond it gets
 * 429 with Retry-After (the public witness network budgets about 10 a second across thousands of
 * logs); the log's client retries later, and a log that floods cannot slow the others. Only
 * origins whose checkpoint a followed log's key signed get a bucket ({@link Witness}).
 */
final class SubmissionRate {
    private final double perSecond;
    private final double burst;
    private final LongSupplier nanos;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }

    SubmissionRate(double perSecond, int burst, LongSupplier nanos) {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException(
                    "the rate per log must be above 0 and its burst at least 1, got " + perSecond + " and " + burst);
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanos = nanos;
    }

    /** 0 when a request of {@code origin} may go now (and takes its token), else the seconds to wait. */
    long secondsToWait(String origin) {
        long now = nanos.getAsLong();
        Bucket b = buckets.computeIfAbsent(origin, o -> new Bucket(burst, now));
        synchronized (b) {
            b.tokens = Math.min(burst, b.tokens + (now - b.at) / 1e9 * perSecond);
            b.at = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - b.tokens) / perSecond));
        }
    }
}
