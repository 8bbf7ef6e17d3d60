package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.junit.jupiter.api.Test;

/**
 * The openings as the projection stores them in a record's row (docs/personal-data.md "The
 * projection"): salts and the values no column holds, read back with the row's columns; V19's
 * encoding still read; every malformed row refused with where.
 */
class ProjectedOpeningsTest {
    private static byte[] salt(int b) {
        byte[] s = new byte[16];
        java.util.Arrays.fill(s, (byte) b);
        return s;
    }

    private static final List<Opening> VOTE = List.of(
            new Opening("username", salt(4), "ann@example.org"),
            new Opening("user_id", salt(3), "ann"),
            new Opening("body.ip", salt(2), "10.0.0.1"),
            new Opening("body.country", salt(1), "ES"));

    private static final ProjectedOpenings.Columns COLUMNS =
            new ProjectedOpenings.Columns("ann", "ann@example.org", null);

    @Test
    void theStoredFormHoldsSaltsAndTheValuesNoColumnHolds() {
        byte[] stored = ProjectedOpenings.encode(VOTE);
        // 0x80, four openings; country (0) with "ES", ip (2) with "10.0.0.1", user_id (3) and username (4) salts only
        String expected = "8004" + "00" + "01".repeat(16) + "024553" + "02" + "02".repeat(16) + "0831302e302e302e31"
                + "03" + "03".repeat(16) + "04" + "04".repeat(16);
        assertEquals(expected, HexFormat.of().formatHex(stored));
        assertEquals(
                List.of(VOTE.get(3), VOTE.get(2), VOTE.get(1), VOTE.get(0)),
                ProjectedOpenings.decode(stored, COLUMNS),
                "in path order, with the columns' values");
        assertTrue(stored.length < PersonalOpenings.encode(VOTE).length - 50, "smaller than the event's plaintext");
    }

    @Test
    void aRowMovedFromV19IsReadAsItIs() {
        byte[] v19 = PersonalOpenings.encode(VOTE);
        assertEquals(PersonalOpenings.decode(v19), ProjectedOpenings.decode(v19, COLUMNS));
    }

    @Test
    void malformedRowsAndEmptyColumnsAreRefusedWithTheReason() {
        byte[] stored = ProjectedOpenings.encode(VOTE);
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ProjectedOpenings.decode(
                                stored, new ProjectedOpenings.Columns(null, "ann@example.org", null)))
                .getMessage()
                .contains("the salt of user_id is stored but its column is empty"));
        byte[] cut = java.util.Arrays.copyOf(stored, stored.length - 3);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProjectedOpenings.decode(cut, COLUMNS))
                .getMessage()
                .contains("cut short"));
        byte[] longer = java.util.Arrays.copyOf(stored, stored.length + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProjectedOpenings.decode(longer, COLUMNS))
                .getMessage()
                .contains("after the last one"));
        byte[] unknown = stored.clone();
        unknown[2] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProjectedOpenings.decode(unknown, COLUMNS))
                .getMessage()
                .contains("path code 9"));
        assertThrows(
                IllegalArgumentException.class,
                () -> ProjectedOpenings.encode(List.of(new Opening("body.client_id", salt(1), "x"))));
        assertThrows(IllegalArgumentException.class, () -> ProjectedOpenings.encode(List.of(VOTE.get(0), VOTE.get(0))));
        assertArrayEquals(new byte[] {(byte) 0x80, 0}, ProjectedOpenings.encode(List.of()));
    }
}
