package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.junit.jupiter.api.Test;

/** The names only the log writes (issue 61 item 1, decision 130), and the one key that signs them. */
class LogStatementsTest {
    @Test
    void reservedBoardsKindsAndPrefixesAreRecognisedAndOrdinaryOnesAreNot() {
        assertTrue(LogStatements.reserved("heads", "CAST_VOTE", "v-1"));
        assertTrue(LogStatements.reserved("erasures", "CAST_VOTE", "v-1"));
        assertTrue(LogStatements.reserved("b1", "BOARD_SEALED", "v-1"));
        assertTrue(LogStatements.reserved("b1", "PERSONAL_DATA_ERASED", "v-1"));
        assertTrue(LogStatements.reserved("b1", "CAST_VOTE", "seal:b1"));
        assertTrue(LogStatements.reserved("b1", "CAST_VOTE", "head:b1:3"));
        assertTrue(LogStatements.reserved("b1", "CAST_VOTE", "erase:b1:2026-01-01:2026-01-02"));
        assertFalse(LogStatements.reserved("b1", "CAST_VOTE", "sealed-vote-1"));
        assertFalse(LogStatements.reserved("b1", "LOG_CHECKPOINT", "cp-1"), "LOG_CHECKPOINT is reserved on heads only");
        assertFalse(LogStatements.reserved("headsup", "CAST_VOTE", "v-1"));
    }

    @Test
    void eachReservedNameFitsOneShapeOnly() {
        assertNull(LogStatements.misfit("b1", "BOARD_SEALED", "seal:b1"));
        assertNull(LogStatements.misfit("heads", "LOG_CHECKPOINT", "head:b1:10"));
        assertNull(LogStatements.misfit("erasures", "PERSONAL_DATA_ERASED", "erase:b1:2026-01-01:2026-01-01"));
        // a vote squatting each reserved ID or board
        assertTrue(LogStatements.misfit("b1", "CAST_VOTE", "seal:b1").contains("seal:b1"));
        assertNotNull(LogStatements.misfit("heads", "CAST_VOTE", "head:b1:10"));
        assertNotNull(LogStatements.misfit("b1", "CAST_VOTE", "head:b1:10"));
        assertNotNull(LogStatements.misfit("b1", "CAST_VOTE", "erase:x"));
        assertNotNull(LogStatements.misfit("erasures", "CAST_VOTE", "v-1"));
        // another board's seal ID, a seal under another ID, a seal of a reserved board
        assertNotNull(LogStatements.misfit("b1", "BOARD_SEALED", "seal:b2"));
        assertNotNull(LogStatements.misfit("b1", "BOARD_SEALED", "my-seal"));
        assertTrue(LogStatements.misfit("heads", "BOARD_SEALED", "seal:heads").contains("holds only"));
        assertNotNull(LogStatements.misfit("erasures", "BOARD_SEALED", "seal:erasures"));
        // an account elsewhere than the erasures board
        assertNotNull(LogStatements.misfit("b1", "PERSONAL_DATA_ERASED", "erase:x"));
        assertEquals("seal:b1", LogStatements.sealId("b1"));
        assertTrue(LogStatements.reservedBoard("heads"));
        assertFalse(LogStatements.reservedBoard("b1"));
    }

    @Test
    void theLogsStatementKeyIsItsCheckpointKeyAndItsSignaturesCannotPassForANotes() throws Exception {
        NoteSigner log = NoteSigner.generate("log.example");
        SigningKey key = log.statementKey();
        assertArrayEquals(log.publicKey(), key.publicKey());
        assertArrayEquals(log.publicKey(), NoteVerifier.parse(log.verifierKey()).publicKey());
        // the signed bytes of a statement start "ELS1" 0x07: a note's text may hold no such byte
        byte[] statement = "ELS1\u0007Statement".getBytes(StandardCharsets.US_ASCII);
        assertThrows(
                IllegalArgumentException.class,
                () -> SignedNote.sign(new String(statement, StandardCharsets.UTF_8) + "\n", log));
    }
}
