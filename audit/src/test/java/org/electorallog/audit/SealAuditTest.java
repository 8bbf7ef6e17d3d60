package org.electorallog.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The audit's check of a board's seal (issue 42) on copies of {@link AuditTest}'s projected board,
 * which is open: marked sealed without a seal record, and given a seal record with records after
 * it, each is a {@code SEAL_MISMATCH}; a continuation record after record 0 is a
 * {@code CONTINUATION_NOT_FIRST}; the untouched board has none.
 */
class SealAuditTest {
    @BeforeAll
    static void project() throws Exception {
        AuditTest.projectOnce();
    }

    @Test
    void anOpenBoardHasNoSealFinding() throws Exception {
        AuditResult r = AuditTest.auditCopy(null);
        assertTrue(r.findings(Finding.Kind.SEAL_MISMATCH).isEmpty(), r.toJson());
    }

    @Test
    void aBoardMarkedSealedWithoutItsSealRecordIsReported() throws Exception {
        AuditResult r =
                AuditTest.auditCopy("UPDATE board_state SET sealed = now() WHERE board_id = " + AuditTest.BOARD_ID);
        assertTrue(
                r.findings(Finding.Kind.SEAL_MISMATCH).stream()
                        .anyMatch(f -> f.detail().startsWith("the board state says sealed")),
                r.toJson());
    }

    @Test
    void aSealRecordWithRecordsAfterItIsReported() throws Exception {
        AuditResult r =
                AuditTest.auditCopy("UPDATE records SET kind = 18 WHERE id = 10 AND board_id = " + AuditTest.BOARD_ID);
        AuditTest.assertFinding(r, Finding.Kind.SEAL_MISMATCH, 10L);
        assertTrue(
                r.findings(Finding.Kind.SEAL_MISMATCH).stream()
                        .anyMatch(f -> f.detail().contains("record(s) follow it")),
                r.toJson());
    }

    @Test
    void aContinuationThatIsNotTheFirstRecordIsReported() throws Exception {
        AuditResult r =
                AuditTest.auditCopy("UPDATE records SET kind = 17 WHERE id = 10 AND board_id = " + AuditTest.BOARD_ID);
        AuditTest.assertFinding(r, Finding.Kind.CONTINUATION_NOT_FIRST, 10L);
        assertTrue(AuditTest.auditCopy(null)
                .findings(Finding.Kind.CONTINUATION_NOT_FIRST)
                .isEmpty());
    }
}
