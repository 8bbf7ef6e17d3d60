package org.electorallog.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.CommittedForm;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.CanonicalWriter;
import org.junit.jupiter.api.Test;

/**
 * {@link ExportRow#of(long, byte[])} makes a row in one pass over the bytes; the general path
 * (the statement's {@link CanonicalStatementReader#fields}, bodies by Jackson) defines the row. The
 * two agree column for column on every kind, on the committed form, on votes, and on statements
 * written by hand to reach each case the one pass leaves to the general path (a double, an escaped
 * string, a field twice, a field of another type, unsorted and nested bodies); both refuse the
 * same malformed bytes.
 */
class ExportRowTest {
    private static void same(byte[] statement) {
        ExportRow fast = ExportRow.of(7, statement);
        ExportRow general = ExportRow.of(7, statement, CanonicalStatementReader.fields(statement));
        assertEquals("", fast.differences(general), () -> "columns of " + general);
    }

    @Test
    void everyKindCommittedAndVotesAgreeWithTheGeneralPath() {
        List<Statement> all = new ArrayList<>(ElectionStatements.everyKind("b"));
        ElectionStatements made = new ElectionStatements("b", 3);
        made.interleaved(0, 2_000, all::add);
        int committed = 0;
        for (Statement s : all) {
            same(CanonicalStatement.encode(s));
            if (s.getFormatVersion() == null) {
                same(CanonicalStatement.encode(CommittedForm.commit(s).statement()));
                committed++;
            }
        }
        assertTrue(committed > 2_000, "committed forms checked: " + committed);
        ExportRow vote = ExportRow.of(0, CanonicalStatement.encode(made.vote("v", 1)));
        assertTrue(vote.body().startsWith("{\"") && vote.body().contains("\"election_id\":"), vote.body());
    }

    @Test
    void anUnreadableTimeDiffersEvenFromItself() {
        ExportRow vote = ExportRow.of(0, CanonicalStatement.encode(new ElectionStatements("b", 3).vote("v", 1)));
        assertEquals("", vote.differences(vote));
        ExportRow odd = new ExportRow(
                vote.recordId(),
                vote.board(),
                vote.kind(),
                ExportRow.UNREADABLE_TIME,
                vote.deliveryId(),
                vote.senderName(),
                vote.senderPublicKey(),
                vote.userId(),
                vote.username(),
                vote.electionId(),
                vote.areaId(),
                vote.ballotId(),
                vote.formatVersion(),
                vote.body(),
                vote.commitments(),
                vote.artifact(),
                vote.statement());
        assertEquals("statement_time", odd.differences(vote));
        assertEquals("statement_time", odd.differences(odd), "a statement naming that time has no row that agrees");
    }

    /** A statement of the given top-level fields, each written by {@code fields}. */
    private static byte[] statement(int count, Consumer<CanonicalWriter> fields) {
        CanonicalWriter w = CanonicalWriter.statement();
        w.record(CanonicalWriter.str("Statement"), count);
        fields.accept(w);
        return w.toByteArray();
    }

    private static void text(CanonicalWriter w, String name, String value) {
        w.field(CanonicalWriter.str(name));
        w.string(value);
    }

    /** A statement whose body is written by {@code body}, beside a board, a kind and a time. */
    private static byte[] withBody(Consumer<CanonicalWriter> body) {
        return statement(4, w -> {
            text(w, "board", "b");
            text(w, "kind", "CAST_VOTE");
            w.field(CanonicalWriter.str("statement_timestamp"));
            w.int64(1_767_225_600_000L);
            w.field(CanonicalWriter.str("body"));
            body.accept(w);
        });
    }

    @Test
    void bodiesOfEveryShapeRenderAsJacksonDoes() {
        // fields out of order, nested record, map, array, bytes, boolean, null, negative long
        byte[] nested = withBody(w -> {
            w.record(CanonicalWriter.str("Body"), 7);
            text(w, "zeta", "last");
            w.field(CanonicalWriter.str("alpha"));
            w.array(3);
            w.int64(-5);
            w.nullValue();
            w.bool(true);
            w.field(CanonicalWriter.str("map"));
            w.map(2);
            w.mapKey("b");
            w.bytes(new byte[] {1, 2, 3, (byte) 0xFF});
            w.mapKey("a");
            w.record(CanonicalWriter.str("Inner"), 1);
            text(w, "y", "é ✓ 𝄞");
            w.field(CanonicalWriter.str("Capital"));
            w.bool(false);
            w.field(CanonicalWriter.str("empty"));
            w.array(0);
            w.field(CanonicalWriter.str("none"));
            w.map(0);
            text(w, "slash", "a/b<c>&'");
        });
        same(nested);
        assertEquals(
                "{\"Capital\":false,\"alpha\":[-5,null,true],\"empty\":[],\"map\":{\"a\":{\"y\":\"é ✓ 𝄞\"},"
                        + "\"b\":\"AQID/w==\"},\"none\":{},\"slash\":\"a/b<c>&'\",\"zeta\":\"last\"}",
                ExportRow.of(0, nested).body());
        // what the one pass leaves to Jackson
        same(withBody(w -> {
            w.record(CanonicalWriter.str("Body"), 1);
            w.field(CanonicalWriter.str("share"));
            w.float64(0.1);
        }));
        for (String escaped : List.of("quote \" inside", "back\\slash", "line\nfeed", "tab\t", "\u0001", "\u001f")) {
            same(withBody(w -> {
                w.record(CanonicalWriter.str("Body"), 1);
                text(w, "s", escaped);
            }));
            same(withBody(w -> {
                w.map(1);
                w.mapKey(escaped);
                w.nullValue();
            }));
        }
        same(withBody(w -> {
            w.map(2);
            w.mapKey("k");
            w.int64(1);
            w.mapKey("k");
            w.int64(2);
        }));
        same(withBody(w -> w.bytes(new byte[] {0x08, 0x00}))); // body as bytes: the general path reads them
    }

    @Test
    void oddTopLevelFieldsTakeTheGeneralPath() {
        same(statement(2, w -> {
            text(w, "board", "first");
            text(w, "board", "second");
        }));
        same(statement(2, w -> {
            w.field(CanonicalWriter.str("statement_timestamp"));
            w.string("not a number");
            w.field(CanonicalWriter.str("format_version"));
            w.float64(2.0);
        }));
        same(statement(2, w -> {
            w.field(CanonicalWriter.str("sender_public_key"));
            w.array(1);
            w.int64(1);
            w.field(CanonicalWriter.str("unknown"));
            w.map(0);
        }));
        byte[] boardAsBytes = statement(1, w -> {
            w.field(CanonicalWriter.str("board"));
            w.bytes(new byte[] {1});
        });
        assertThrows(ClassCastException.class, () -> ExportRow.of(0, boardAsBytes), "as the general path refuses it");
        byte[] truncated = CanonicalStatement.encode(new ElectionStatements("b", 1).vote("v", 1));
        byte[] cut = java.util.Arrays.copyOf(truncated, truncated.length - 3);
        assertThrows(IllegalArgumentException.class, () -> ExportRow.of(0, cut));
        byte[] nullField = statement(1, w -> {
            w.field(CanonicalWriter.str("board"));
            w.nullValue();
        });
        assertThrows(IllegalArgumentException.class, () -> CanonicalStatementReader.fields(nullField));
        assertThrows(IllegalArgumentException.class, () -> ExportRow.of(0, nullField), "a record leaves nulls out");
        byte[] deep = withBody(w -> {
            for (int i = 0; i < 70; i++) {
                w.array(1);
            }
            w.nullValue();
        });
        assertThrows(IllegalArgumentException.class, () -> ExportRow.of(0, deep), "deeper than the reader allows");
    }
}
