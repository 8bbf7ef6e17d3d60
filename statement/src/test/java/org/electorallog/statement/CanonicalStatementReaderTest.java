package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 61 item 9: an entry a hostile API serves cannot end its reader. A value nested far deeper
 * than any statement is refused with an IllegalArgumentException (which the monitor and
 * verify-board report), never a StackOverflowError; values nested as statements are still read.
 */
class CanonicalStatementReaderTest {

    /** ELS1, a record "Statement" with one field "body": arrays nested {@code depth} deep around a null. */
    static byte[] nested(int depth) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        out.write(0x07);
        str(out, "Statement");
        out.write(1); // one field
        str(out, "body");
        for (int i = 0; i < depth; i++) {
            out.write(0x08);
            out.write(1); // an array of one value
        }
        out.write(0x00);
        return out.toByteArray();
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b.length);
        out.writeBytes(b);
    }

    @Test
    void valuesNestedAsStatementsAreRead() {
        byte[] entry = nested(10);
        Map<String, Object> fields = CanonicalStatementReader.fields(entry);
        byte[] body = (byte[]) fields.get("body");
        assertEquals(10 * 2 + 1, body.length, "the nested value handed out whole");
        assertArrayEquals(java.util.Arrays.copyOfRange(entry, entry.length - body.length, entry.length), body);
    }

    @Test
    void aValueNestedAHundredThousandDeepIsRefusedNotAStackOverflow() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CanonicalStatementReader.fields(nested(100_000)));
        assertTrue(e.getMessage().contains("nested deeper than 64 levels"), e.getMessage());
        assertEquals(
                1,
                CanonicalStatementReader.fields(nested(CanonicalStatementReader.MAX_DEPTH))
                        .size(),
                "nested exactly to the limit: read");
        assertThrows(
                IllegalArgumentException.class,
                () -> CanonicalStatementReader.fields(nested(CanonicalStatementReader.MAX_DEPTH + 1)));
    }

    @Test
    void aCountLargerThanTheBytesEndsAtTheirEnd() {
        byte[] entry = nested(1);
        entry[entry.length - 2] = (byte) 0x7f; // an array that claims 127 values and holds one
        assertThrows(IllegalArgumentException.class, () -> CanonicalStatementReader.fields(entry));
    }
}
