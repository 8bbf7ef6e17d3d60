package org.electorallog.perf.jmh;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.electorallog.core.Hashes;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The tree costs of issue 3: appending 1M leaves (tiles drained every 5,000, as a projector batch
 * does), and building and verifying an inclusion proof at size 2^24 from in-memory tiles.
 */
@Fork(
        value = 1,
        jvmArgs = {"-Xmx3g"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class TreeBenchmark {

    /** One million precomputed leaf hashes. */
    @State(Scope.Benchmark)
    public static class Leaves {
        byte[][] leaves;

        @Setup(Level.Trial)
        public void setUp() {
            leaves = new byte[1_000_000][];
            for (int i = 0; i < leaves.length; i++) {
                leaves[i] = Hashes.leafHash(("leaf " + i).getBytes());
            }
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object append1MLeaves(Leaves l) {
        TileTree t = TileTree.empty();
        int n = 0;
        for (byte[] leaf : l.leaves) {
            t.appendLeafHash(leaf);
            if (++n % 5000 == 0) {
                t.drainChangedTiles();
                t.root();
            }
        }
        t.drainChangedTiles();
        return t.root();
    }

    /** The tiles of a tree of 2^24 leaves. */
    @State(Scope.Benchmark)
    public static class BigTree {
        static final long SIZE = 1L << 24;
        Map<TileKey, byte[]> tiles;
        byte[] root;
        SplittableRandom random = new SplittableRandom(1);

        @Setup(Level.Trial)
        public void setUp() {
            TileTree t = TileTree.empty();
            tiles = new HashMap<>();
            byte[] entry = new byte[8];
            for (long i = 0; i < SIZE; i++) {
                for (int b = 0; b < 8; b++) {
                    entry[b] = (byte) (i >>> (8 * b));
                }
                t.appendLeafHash(Hashes.leafHash(entry));
                if ((i & 0xFFFF) == 0xFFFF) {
                    t.drainChangedTiles().forEach(x -> tiles.put(x.key(), x.hashes()));
                }
            }
            t.drainChangedTiles().forEach(x -> tiles.put(x.key(), x.hashes()));
            root = t.root();
        }

        long index() {
            return random.nextLong(SIZE);
        }

        byte[] leaf(long i) {
            byte[] entry = new byte[8];
            for (int b = 0; b < 8; b++) {
                entry[b] = (byte) (i >>> (8 * b));
            }
            return Hashes.leafHash(entry);
        }
    }

    @Benchmark
    @BenchmarkMode({Mode.AverageTime})
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<byte[]> buildInclusionProofAt2to24(BigTree b) {
        return ProofBuilder.inclusion(b.index(), BigTree.SIZE, keys -> {
            Map<TileKey, byte[]> out = new HashMap<>();
            for (TileKey k : keys) {
                out.put(k, b.tiles.get(k));
            }
            return out;
        });
    }

    @Benchmark
    @BenchmarkMode({Mode.AverageTime})
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long buildAndVerifyInclusionProofAt2to24(BigTree b) throws ProofException {
        long i = b.index();
        List<byte[]> proof = ProofBuilder.inclusion(i, BigTree.SIZE, keys -> {
            Map<TileKey, byte[]> out = new HashMap<>();
            for (TileKey k : keys) {
                out.put(k, b.tiles.get(k));
            }
            return out;
        });
        ProofVerifier.verifyInclusion(i, BigTree.SIZE, b.leaf(i), proof, b.root);
        return i;
    }
}
