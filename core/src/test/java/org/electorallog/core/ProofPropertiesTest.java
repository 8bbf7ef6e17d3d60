package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Proofs at random sizes up to 2^32 (sparse checks on a virtual tree) against the naive recursive
 * RFC 6962 reference, and every proof that should fail does fail.
 */
class ProofPropertiesTest {
    static final long MAX = 1L << 32;

    record Case(long size, long index) {}

    @Provide
    Arbitrary<Case> inclusionCases() {
        Arbitrary<Long> sizes = Arbitraries.oneOf(
                Arbitraries.longs().between(1, MAX),
                Arbitraries.longs().between(1, 40).map(e -> Math.min(MAX, 1L << Math.min(32, e))),
                Arbitraries.longs().between(1, 32).map(e -> (1L << e) + 1),
                Arbitraries.longs().between(1, 32).map(e -> (1L << e) - 1));
        return sizes.flatMap(size -> Arbitraries.oneOf(
                        Arbitraries.longs().between(0, size - 1), Arbitraries.just(size - 1), Arbitraries.just(0L))
                .map(index -> new Case(size, index)));
    }

    @Property(tries = 300)
    void inclusionProofsMatchTheReferenceAndVerify(@ForAll("inclusionCases") Case c) throws Exception {
        SparseTree t = new SparseTree(c.size(), c.index());
        List<byte[]> proof = ProofBuilder.inclusion(c.index(), c.size(), t);
        List<byte[]> expected = t.path(c.index(), 0, c.size());
        assertEquals(expected.size(), proof.size());
        for (int i = 0; i < proof.size(); i++) {
            assertArrayEquals(expected.get(i), proof.get(i), "hash " + i);
        }
        assertEquals(proof.isEmpty() ? 0 : 1, t.tileReads, "one tile request per proof");
        byte[] root = t.root();
        ProofVerifier.verifyInclusion(c.index(), c.size(), SparseTree.S, proof, root);

        // a flipped bit anywhere fails
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> bad = new ArrayList<>(proof);
            byte[] h = bad.get(i).clone();
            h[i % 32] ^= (byte) (1 << (i % 8));
            bad.set(i, h);
            assertThrows(
                    ProofException.class,
                    () -> ProofVerifier.verifyInclusion(c.index(), c.size(), SparseTree.S, bad, root));
        }
        // the wrong leaf, index or size fails
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(c.index(), c.size(), SparseTree.L, proof, root));
        if (c.size() > 1) {
            long other = c.index() == 0 ? 1 : c.index() - 1;
            assertThrows(
                    ProofException.class,
                    () -> ProofVerifier.verifyInclusion(other, c.size(), SparseTree.S, proof, root));
        }
        SparseTree bigger = new SparseTree(c.size() + 1, c.index());
        assertThrows(
                ProofException.class,
                () -> ProofVerifier.verifyInclusion(c.index(), c.size() + 1, SparseTree.S, proof, bigger.root()));
    }

    record Pair(long first, long second, long special) {}

    @Provide
    Arbitrary<Pair> consistencyCases() {
        return Arbitraries.longs()
                .between(1, MAX)
                .flatMap(n -> Combinators.combine(
                                Arbitraries.oneOf(
                                        Arbitraries.longs().between(1, n),
                                        Arbitraries.just(n),
                                        Arbitraries.longs().between(0, 31).map(e -> Math.min(n, 1L << e))),
                                Arbitraries.longs().between(0, n - 1))
                        .as((m, q) -> new Pair(m, n, q)));
    }

    @Property(tries = 300)
    void consistencyProofsMatchTheReferenceAndVerify(@ForAll("consistencyCases") Pair p) throws Exception {
        SparseTree second = new SparseTree(p.second(), p.special());
        SparseTree first = new SparseTree(p.first(), p.special());
        List<byte[]> proof = ProofBuilder.consistency(p.first(), p.second(), second);
        List<byte[]> expected = second.consistency(p.first());
        assertEquals(expected.size(), proof.size());
        for (int i = 0; i < proof.size(); i++) {
            assertArrayEquals(expected.get(i), proof.get(i), "hash " + i);
        }
        byte[] r1 = first.root();
        byte[] r2 = second.root();
        ProofVerifier.verifyConsistency(p.first(), p.second(), r1, r2, proof);
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> bad = new ArrayList<>(proof);
            byte[] h = bad.get(i).clone();
            h[0] ^= 1;
            bad.set(i, h);
            assertThrows(
                    ProofException.class, () -> ProofVerifier.verifyConsistency(p.first(), p.second(), r1, r2, bad));
        }
        if (p.first() < p.second()) {
            // the root of another tree at the first size: the special leaf moved (when it is inside it)
            if (p.special() < p.first()) {
                byte[] otherRoot = new SparseTree(p.first(), p.first()).root();
                assertThrows(
                        ProofException.class,
                        () -> ProofVerifier.verifyConsistency(p.first(), p.second(), otherRoot, r2, proof));
            }
            byte[] otherSecond = new SparseTree(p.second(), -1).root();
            assertThrows(
                    ProofException.class,
                    () -> ProofVerifier.verifyConsistency(p.first(), p.second(), r1, otherSecond, proof));
            // a claimed first size that is not the proof's
            long wrongFirst = p.first() + 1;
            if (wrongFirst < p.second()) {
                byte[] wrongRoot = new SparseTree(wrongFirst, p.special()).root();
                assertThrows(
                        ProofException.class,
                        () -> ProofVerifier.verifyConsistency(wrongFirst, p.second(), wrongRoot, r2, proof));
            }
        }
    }

    @Property(tries = 200)
    void treeHeadsFromTilesEqualTheReference(@ForAll("inclusionCases") Case c) {
        SparseTree t = new SparseTree(c.size(), c.index());
        assertArrayEquals(t.root(), ProofBuilder.rootAt(c.size(), t));
    }

    @Property(tries = 2000)
    void anInclusionProofReadsOnlyThePathAndRightEdgeTiles(@ForAll("inclusionCases") Case c) {
        // what the proof reads: the leaf's own hash and its audit path (the root comes from the checkpoint)
        List<Range> ranges = new ArrayList<>(List.of(new Range(c.index(), c.index() + 1)));
        ranges.addAll(TreeMath.inclusionRanges(c.index(), c.size()));
        Set<TileKey> read = ProofBuilder.tilesFor(ranges);
        Set<TileKey> bound = TileLayout.inclusionTiles(c.index(), c.size());
        for (TileKey k : read) {
            assertTrue(bound.contains(k), "tile " + k + " of the proof of " + c + " is not in " + bound);
        }
        // two a level at most, and no level above the tree's height
        int levels = 1;
        while (levels < TileLayout.MAX_LEVELS && c.size() >>> (TileLayout.TILE_HEIGHT * levels) > 0) {
            levels++;
        }
        assertTrue(bound.size() <= 2 * levels, bound.size() + " tiles for " + levels + " levels");
    }

    @Property(tries = 2000)
    void aConsistencyProofReadsOnlyThePathTilesOfTheFirstTreesLastLeaf(@ForAll("consistencyCases") Pair p) {
        // what the proof reads: the first tree's root (folded from tiles) and SUBPROOF(from, D[0:to])
        List<Range> ranges = new ArrayList<>(List.of(new Range(0, p.first())));
        ranges.addAll(TreeMath.consistencyRanges(p.first(), p.second()));
        Set<TileKey> bound = TileLayout.consistencyTiles(p.first(), p.second());
        for (TileKey k : ProofBuilder.tilesFor(ranges)) {
            assertTrue(bound.contains(k), "tile " + k + " of the proof " + p + " is not in " + bound);
        }
    }

    /** A record proof for a client that trusts a checkpoint of {@code trusted} leaves, in a log of {@code current}. */
    record TrustedCase(long current, long trusted, long index) {}

    @Provide
    Arbitrary<TrustedCase> trustedCases() {
        return consistencyCases()
                .flatMap(p -> Arbitraries.oneOf(
                                Arbitraries.longs().between(0, p.second() - 1),
                                Arbitraries.just(p.first() - 1),
                                Arbitraries.just(Math.min(p.first(), p.second() - 1)),
                                Arbitraries.just(p.second() - 1))
                        .map(index -> new TrustedCase(p.second(), p.first(), index)));
    }

    @Property(tries = 2000)
    void aProofFromATrustedCheckpointReadsOnlyThePathTilesOfTheRecordAndTheTrustedTreesLastLeaf(
            @ForAll("trustedCases") TrustedCase c) throws Exception {
        SparseTree tree = new SparseTree(c.current(), c.index());
        byte[] trustedRoot = ProofBuilder.rootAt(c.trusted(), tree);
        Set<TileKey> read = new java.util.HashSet<>();
        RecordProof proof = RecordProof.build(c.index(), c.trusted(), trustedRoot, c.current(), keys -> {
            read.addAll(keys);
            return tree.readTiles(keys);
        });
        Set<TileKey> bound = TileLayout.pathTiles(c.current(), c.index(), c.trusted() - 1);
        for (TileKey k : read) {
            assertTrue(bound.contains(k), "tile " + k + " of the proof of " + c + " is not in " + bound);
        }
        // and the proof is the one the tiles make: it verifies
        byte[] rootAtSize = ProofBuilder.rootAt(proof.size(), tree);
        proof.verify(SparseTree.S, trustedRoot, rootAtSize);
    }

    @Property(tries = 50)
    void pathTilesRefuseALeafOutsideTheTree(@ForAll("trustedCases") TrustedCase c) {
        assertThrows(IllegalArgumentException.class, () -> TileLayout.pathTiles(c.current(), c.index(), c.current()));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.pathTiles(c.current(), -1));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.consistencyTiles(0, c.current()));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.consistencyTiles(c.current() + 1, c.current()));
    }

    @Property(tries = 50)
    void inclusionTilesRefuseALeafOutsideTheTree(@ForAll("inclusionCases") Case c) {
        assertThrows(IllegalArgumentException.class, () -> TileLayout.inclusionTiles(c.size(), c.size()));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.inclusionTiles(-1, c.size()));
    }
}
