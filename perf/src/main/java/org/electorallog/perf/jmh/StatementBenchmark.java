package org.electorallog.perf.jmh;

import java.util.concurrent.TimeUnit;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.StatementRules;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the projector's stream thread does with every event before a batch is written: decode the
 * wire bytes, check the statement rules and build the canonical bytes (StatementCodec.decode), and
 * the two last steps on their own. One operation is one statement of the fill's mix (a voter's four
 * identity-provider events and one cast vote, ElectionStatements).
 */
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class StatementBenchmark {
    private final StatementCodec codec = StatementCodec.embedded();
    private final Statement[] statements = new ElectionStatements("perf-1", 7).voter(0);
    private final byte[][] wire = new byte[statements.length][];

    public StatementBenchmark() {
        for (int i = 0; i < statements.length; i++) {
            wire[i] = codec.encode(
                    Envelope.newBuilder().setStatement(statements[i]).build());
        }
    }

    @Benchmark
    @OperationsPerInvocation(5)
    public void decode(Blackhole bh) throws BadEventException {
        for (byte[] w : wire) {
            DecodedStatement d = codec.decode(w);
            bh.consume(d);
        }
    }

    @Benchmark
    @OperationsPerInvocation(5)
    public void canonicalBytes(Blackhole bh) {
        for (Statement s : statements) {
            bh.consume(CanonicalStatement.encode(s));
        }
    }

    @Benchmark
    @OperationsPerInvocation(5)
    public void statementRules(Blackhole bh) {
        for (Statement s : statements) {
            bh.consume(StatementRules.check(s));
        }
    }
}
