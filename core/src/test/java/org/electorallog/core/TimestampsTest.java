package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The log's timestamp text is {@link Instant#toString()}'s, byte for byte, at every precision and year. */
class TimestampsTest {
    /** Seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
    static final long MIN = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();

    static final long MAX = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Provide
    Arbitrary<Instant> instants() {
        Arbitrary<Long> seconds = Arbitraries.oneOf(
                Arbitraries.longs().between(MIN, MAX),
                // the years the log lives in, and whole minutes and days (where a formatter may drop ":00")
                Arbitraries.longs().between(1_700_000_000L, 2_000_000_000L),
                Arbitraries.longs().between(MIN / 60, MAX / 60).map(m -> m * 60),
                Arbitraries.longs().between(MIN / 86_400, MAX / 86_400).map(d -> d * 86_400));
        Arbitrary<Integer> nanos = Arbitraries.oneOf(
                Arbitraries.just(0),
                Arbitraries.integers().between(0, 999).map(ms -> ms * 1_000_000),
                Arbitraries.integers().between(0, 999_999).map(us -> us * 1_000),
                Arbitraries.integers().between(0, 999_999_999));
        return net.jqwik.api.Combinators.combine(seconds, nanos).as(Instant::ofEpochSecond);
    }

    @Property(tries = 2000)
    void theTextIsInstantToString(@ForAll("instants") Instant t) {
        assertEquals(t.toString(), Timestamps.rfc3339(t));
    }

    @Test
    void edgesAndYearsOutsideFourDigits() {
        for (String s : new String[] {
            "1970-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
            "2026-12-01T21:47:02.305Z",
            "2026-12-01T21:47:02.305001Z",
            "2026-12-01T21:47:00Z",
            "0999-03-04T05:06:07.000000008Z"
        }) {
            assertEquals(s, Timestamps.rfc3339(Instant.parse(s)));
        }
        assertEquals(Instant.MIN.toString(), Timestamps.rfc3339(Instant.MIN));
        assertEquals(Instant.MAX.toString(), Timestamps.rfc3339(Instant.MAX));
        Instant beforeYearZero = Instant.ofEpochSecond(MIN - 1, 5);
        assertEquals(beforeYearZero.toString(), Timestamps.rfc3339(beforeYearZero));
        Instant afterYear9999 = Instant.ofEpochSecond(MAX + 1);
        assertEquals(afterYear9999.toString(), Timestamps.rfc3339(afterYear9999));
    }
}
