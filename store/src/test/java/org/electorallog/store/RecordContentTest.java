package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.electorallog.core.Hashes;
import org.electorallog.statement.Entry;
import org.junit.jupiter.api.Test;

/**
 * A record's row content (V22): its statement in the stored form when that form can hold it, and as
 * canonical bytes when it cannot, so that no statement fails its record; a cast vote's leaf key from
 * its entry's leaf hash.
 */
class RecordContentTest {
    private static final IndexedFields FIELDS = new IndexedFields(null, null, "e1", null, null);

    @Test
    void aStatementIsStoredInTheStoredFormAndReadBack() {
        // ELS1, a map of one entry: "board" -> the row's board name
        byte[] canonical = canonical(out -> {
            out.write(0x09);
            out.write(1);
            text(out, "board");
            out.write(0x04);
            text(out, "b1");
        });
        RecordContent c = content(canonical, (short) 2);
        assertTrue(c.storedStatement().length < canonical.length, "names coded, the board a reference");
        assertArrayEquals(canonical, RecordStatements.canonical(c.storedStatement(), "b1", "d1", FIELDS));
        assertNull(c.leafKey(), "only cast votes have a leaf key");
    }

    @Test
    void aStatementTheStoredFormCannotHoldIsStoredAsItsCanonicalBytes() {
        // arrays of one nested 40 deep: deeper than the stored form walks
        byte[] canonical = canonical(out -> {
            for (int i = 0; i < 40; i++) {
                out.write(0x08);
                out.write(1);
            }
            out.write(0x00);
        });
        RecordContent c = content(canonical, RecordStatements.CAST_VOTE_KIND);
        assertArrayEquals(canonical, c.storedStatement());
        assertArrayEquals(canonical, RecordStatements.canonical(c.storedStatement(), "b1", "d1", FIELDS));
        assertEquals(RecordStatements.leafKey(Hashes.leafHash(canonical)), c.leafKey());
    }

    private static RecordContent content(byte[] canonical, short kind) {
        return new RecordContent(
                0L, Entry.of(canonical, kind), FIELDS, "b1", "d1", 1, 0, 0L, null, null, null, null, null);
    }

    private interface Body {
        void write(ByteArrayOutputStream out);
    }

    private static byte[] canonical(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        body.write(out);
        return out.toByteArray();
    }

    private static void text(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b.length);
        out.writeBytes(b);
    }
}
