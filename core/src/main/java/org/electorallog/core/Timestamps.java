package org.electorallog.core;

import java.time.Instant;
import java.time.LocalDate;

/**
 * Instants as the text the log's JSON and CSV carry: RFC 3339 section 5.6 {@code date-time} in UTC
 * ({@code Z}), exactly as {@link Instant#toString()} writes it (ISO 8601 extended; seconds always
 * written; the fraction left out when zero, else in groups of three digits: milliseconds,
 * microseconds or nanoseconds), without going through {@code DateTimeFormatter}. The query API
 * writes two of these per listed record; {@code Instant.toString} was 82 of 606 samples of its
 * threads in a JFR profile of a probe, and takes 427 ns against 163 here in JMH (decision 67).
 * Years outside 0000-9999, which {@code Instant.toString} writes with a sign or more digits, are
 * left to it.
 */
public final class Timestamps {
    private static final long SECONDS_PER_DAY = 86_400;
    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since the epoch. */
    private static final long YEAR_0000 = -62_167_219_200L;

    private static final long YEAR_9999_END = 253_402_300_799L;

    private Timestamps() {}

    /** The RFC 3339 UTC text of {@code t}; equal to {@code t.toString()} for every instant. */
    public static String rfc3339(Instant t) {
        long seconds = t.getEpochSecond();
        if (seconds < YEAR_0000 || seconds > YEAR_9999_END) {
            return t.toString();
        }
        LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        int year = day.getYear();
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        int nano = t.getNano();
        StringBuilder sb = new StringBuilder(30);
        digits(sb, year, 4);
        sb.append('-');
        digits(sb, day.getMonthValue(), 2);
        sb.append('-');
        digits(sb, day.getDayOfMonth(), 2);
        sb.append('T');
        digits(sb, secondOfDay / 3600, 2);
        sb.append(':');
        digits(sb, secondOfDay / 60 % 60, 2);
        sb.append(':');
        digits(sb, secondOfDay % 60, 2);
        if (nano != 0) {
            sb.append('.');
            if (nano % 1_000_000 == 0) {
                digits(sb, nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                digits(sb, nano / 1_000, 6);
            } else {
                digits(sb, nano, 9);
            }
        }
        return sb.append('Z').toString();
    }

    /** {@code value} (non-negative) in exactly {@code width} decimal digits, zero-padded. */
    private static void digits(StringBuilder sb, int value, int width) {
        for (int div = pow10(width - 1); div > 0; div /= 10) {
            sb.append((char) ('0' + value / div % 10));
        }
    }

    private static int pow10(int n) {
        int p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }
}
