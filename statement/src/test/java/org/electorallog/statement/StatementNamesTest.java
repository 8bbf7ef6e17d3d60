package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Stored rows hold name codes (decision 123): a code once given names the same name forever. The
 * kind symbols come from {@link StatementKinds}, the one table of kinds, so these pins fail when
 * either list is reordered.
 */
class StatementNamesTest {
    @Test
    void codesNeverMove() {
        assertEquals(1, code("Statement"));
        assertEquals(4, code("kind"));
        assertEquals(5, code("UNKNOWN"));
        assertEquals(6, code("CAST_VOTE"));
        assertEquals(23, code("BOARD_SEALED"));
        assertEquals(24, code("PERSONAL_DATA_ERASED"));
        assertEquals(25, code("statement_timestamp"));
        assertEquals(82, code("body.ip"));
        assertEquals(82, StatementNames.NAMES.size());
    }

    @Test
    void everyKindHasACode() {
        for (String kind : StatementKinds.NAMES) {
            assertTrue(StatementNames.coded(kind), kind + " is stored as a code");
        }
    }

    private static int code(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        int code = StatementNames.code(utf8, 0, utf8.length);
        assertEquals(name, new String(StatementNames.utf8(code), StandardCharsets.UTF_8));
        return code;
    }
}
