package org.electorallog.perf.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Signing a C2SP checkpoint (Ed25519 signed note) and opening one. */
@Fork(1)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class CheckpointBenchmark {
    private final NoteSigner signer = NoteSigner.generate("electoral-log.example/board-1");
    private final List<NoteVerifier> verifiers = List.of(NoteVerifier.parse(signer.verifierKey()));
    private final Checkpoint checkpoint =
            new Checkpoint("electoral-log.example/board-1", 20_000_000, Hashes.sha256("root".getBytes()));
    private final String note = checkpoint.sign(signer);

    @Benchmark
    public String signCheckpoint() {
        return checkpoint.sign(signer);
    }

    @Benchmark
    public Checkpoint verifyCheckpoint() throws ProofException {
        return Checkpoint.open(note, verifiers);
    }
}
