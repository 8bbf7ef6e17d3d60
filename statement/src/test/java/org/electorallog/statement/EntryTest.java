package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.electorallog.core.Hashes;
import org.junit.jupiter.api.Test;

/** An entry's leaf hash and kind, computed once from its canonical bytes. */
class EntryTest {
    @Test
    void anEntryCarriesItsLeafHashAndKind() {
        CanonicalWriter w = CanonicalWriter.statement();
        w.record(CanonicalWriter.str("Statement"), 1);
        w.field(CanonicalWriter.str("kind"));
        w.enumSymbol("BOARD_SEALED");
        byte[] canonical = w.toByteArray();
        Entry e = Entry.of(canonical, "BOARD_SEALED");
        assertArrayEquals(Hashes.leafHash(canonical), e.leafHash());
        assertEquals(StatementKinds.BOARD_SEALED, e.kind());
        assertEquals("BOARD_SEALED", e.kindName());
        assertEquals(
                "BOARD_SEALED", CanonicalStatementReader.fields(e.canonical()).get("kind"));
    }

    @Test
    void anEntryTooLongOrOfNoKindIsRefused() {
        assertThrows(
                IllegalArgumentException.class, () -> Entry.of(new byte[CanonicalWriter.MAX_BYTES + 1], "CAST_VOTE"));
        assertThrows(IllegalArgumentException.class, () -> Entry.of(new byte[4], "NO_SUCH_KIND"));
        assertThrows(IllegalArgumentException.class, () -> Entry.of(new byte[4], (short) 999));
    }
}
