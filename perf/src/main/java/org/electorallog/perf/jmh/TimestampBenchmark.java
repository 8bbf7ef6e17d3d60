package org.electorallog.perf.jmh;

import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.electorallog.core.Timestamps;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A record's time as JSON text, two per listed record (decision 67): {@link Instant#toString()}
 * against core's {@link Timestamps#rfc3339}, which writes the same text. Microsecond instants, as
 * PostgreSQL's timestamptz holds them.
 */
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class TimestampBenchmark {
    private final Instant[] instants = new Instant[1024];
    private int i;

    public TimestampBenchmark() {
        Random r = new Random(7);
        for (int k = 0; k < instants.length; k++) {
            instants[k] = Instant.ofEpochSecond(1_767_225_600L + r.nextInt(31_536_000), r.nextInt(1_000_000) * 1_000L);
        }
    }

    @Benchmark
    public String instantToString() {
        return instants[i++ & 1023].toString();
    }

    @Benchmark
    public String rfc3339() {
        return Timestamps.rfc3339(instants[i++ & 1023]);
    }
}
