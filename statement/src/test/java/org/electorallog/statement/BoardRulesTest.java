package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The board rules (issue 42) as the projector, the audit and the verifier apply them. */
class BoardRulesTest {
    private static final short VOTE = StatementKinds.CAST_VOTE;

    @Test
    void nothingFollowsTheFirstSeal() {
        BoardRules rules = BoardRules.empty();
        assertNull(rules.next(VOTE));
        assertNull(rules.next(StatementKinds.BOARD_SEALED));
        assertTrue(rules.sealed());
        assertEquals(1, rules.sealIndex());
        assertEquals(BoardRules.Breach.AFTER_SEAL, rules.check(VOTE));
        assertEquals(2, rules.size(), "check does not move the walk");
        assertEquals(BoardRules.Breach.AFTER_SEAL, rules.next(StatementKinds.BOARD_SEALED));
        assertEquals(1, rules.sealIndex(), "the seal stays the first one");
        assertEquals(
                "entry 2 follows the seal at entry 1: the sealed board grew",
                rules.describe(BoardRules.Breach.AFTER_SEAL, 2));
    }

    @Test
    void aContinuationIsOnlyRecordZero() {
        BoardRules rules = BoardRules.empty();
        assertNull(rules.next("LOG_CONTINUATION"));
        assertNull(rules.next("CAST_VOTE"));
        assertEquals(BoardRules.Breach.CONTINUATION_NOT_FIRST, rules.next("LOG_CONTINUATION"));
        assertFalse(rules.sealed());
        assertEquals(3, rules.size());
        assertNull(rules.next("A_KIND_OF_A_LATER_VERSION"), "a kind the rules do not name breaks none");
    }

    @Test
    void aWalkGoesOnFromABoardAsStored() {
        BoardRules open = BoardRules.at(5, -1);
        assertEquals(BoardRules.Breach.CONTINUATION_NOT_FIRST, open.check(StatementKinds.LOG_CONTINUATION));
        assertNull(open.check(VOTE));
        BoardRules sealed = BoardRules.at(5, 4);
        assertEquals(BoardRules.Breach.AFTER_SEAL, sealed.check(VOTE));
        assertThrows(IllegalArgumentException.class, () -> BoardRules.at(5, 5));
        assertThrows(IllegalArgumentException.class, () -> BoardRules.at(0, 0));
    }
}
