package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Record proofs from a trusted checkpoint, and divergence. */
class RecordProofTest {
    static final long CURRENT = 5_000_000_000L;

    @Test
    void aRecordBelowTheTrustedSizeIsProvedAtThatSize() throws Exception {
        SparseTree log = new SparseTree(CURRENT, 123_456_789L);
        SparseTree trusted = new SparseTree(4_000_000_000L, 123_456_789L);
        RecordProof p = RecordProof.build(123_456_789L, trusted.size, trusted.root(), CURRENT, log);
        assertEquals(trusted.size, p.size());
        assertTrue(p.consistency().isEmpty());
        p.verify(SparseTree.S, trusted.root(), null);
        assertArrayEquals(SparseTree.S, p.leafHash(), "the record's leaf hash, from the same request");
        assertEquals(1, log.tileReads, "one tile request for the whole proof");
    }

    @Test
    void aRecordAboveTheTrustedSizeComesWithAConsistencyProof() throws Exception {
        long index = 4_500_000_001L;
        SparseTree log = new SparseTree(CURRENT, index);
        SparseTree trusted = new SparseTree(4_000_000_000L, index);
        RecordProof p = RecordProof.build(index, trusted.size, trusted.root(), CURRENT, log);
        assertEquals(CURRENT, p.size());
        assertTrue(!p.consistency().isEmpty());
        p.verify(SparseTree.S, trusted.root(), log.root());
        assertArrayEquals(SparseTree.S, p.leafHash());
        assertEquals(1, log.tileReads, "one tile request for the whole proof");
        assertThrows(ProofException.class, () -> p.verify(SparseTree.L, trusted.root(), log.root()));
        assertThrows(
                ProofException.class,
                () -> p.verify(SparseTree.S, new SparseTree(4_000_000_000L, 1).root(), log.root()));
    }

    @Test
    void aCheckpointThatIsNotAPrefixIsDivergence() {
        SparseTree log = new SparseTree(1_000_000, 10);
        byte[] forged = new SparseTree(500_000, 11).root();
        LogDivergenceException e = assertThrows(
                LogDivergenceException.class, () -> RecordProof.build(10, 500_000, forged, 1_000_000, log));
        assertEquals(500_000, e.trustedSize());
        assertThrows(
                LogDivergenceException.class,
                () -> RecordProof.build(10, 2_000_000, new SparseTree(2_000_000, 10).root(), 1_000_000, log));
        assertThrows(
                IllegalArgumentException.class,
                () -> RecordProof.build(1_000_000, 500_000, new SparseTree(500_000, 10).root(), 1_000_000, log));
    }
}
