package org.electorallog.schemas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.StatementNames;
import org.electorallog.statement.StoredStatement;
import org.electorallog.statement.StoredStatement.Row;
import org.junit.jupiter.api.Test;

/** The projection's stored form of a statement (statement {@link StoredStatement}, decision 123). */
class StoredStatementTest {
    private static Row rowOf(Statement s) {
        return new Row(
                s.getBoard().toString(),
                s.getDeliveryId().toString(),
                str(s.getElectionId()),
                str(s.getAreaId()),
                str(s.getBallotId()));
    }

    private static String str(CharSequence s) {
        return s == null ? null : s.toString();
    }

    private static List<Statement> statements() {
        List<Statement> all = new ArrayList<>(ElectionStatements.everyKind("stored-board"));
        all.addAll(new ElectionStatements("stored-board", 3).election(40));
        List<Statement> committed = new ArrayList<>();
        for (Statement s : all) {
            committed.add(CommittedForm.commit(s).statement());
        }
        all.addAll(committed);
        return all;
    }

    @Test
    void everyStatementComesBackByteForByteAndSmaller() {
        List<Statement> all = statements();
        long canonicalBytes = 0;
        long storedBytes = 0;
        for (Statement s : all) {
            byte[] canonical = CanonicalStatement.encode(s);
            byte[] stored = StoredStatement.stored(canonical, rowOf(s));
            assertArrayEquals(canonical, StoredStatement.canonical(stored, rowOf(s)), () -> s.getKind() + " " + s);
            assertTrue(stored.length < canonical.length, () -> s.getKind() + ": " + stored.length);
            canonicalBytes += canonical.length;
            storedBytes += stored.length;
        }
        assertTrue(
                all.size() > 200 && storedBytes * 10 < canonicalBytes * 7,
                "the stored form is at most 70 % of the canonical bytes: " + storedBytes + " of " + canonicalBytes);
    }

    @Test
    void aRowWrittenBeforeTheStoredFormIsReadAsItIs() {
        byte[] canonical = CanonicalStatement.encode(statements().get(0));
        assertSame(canonical, StoredStatement.canonical(canonical, new Row(null, null, null, null, null)));
    }

    @Test
    void readWithAnotherRowTheStatementIsAnotherOne() {
        Statement vote = new ElectionStatements("stored-board", 5).vote("u-1", 1_800_000_000_000L);
        byte[] canonical = CanonicalStatement.encode(vote);
        Row own = rowOf(vote);
        byte[] stored = StoredStatement.stored(canonical, own);
        Row otherBallot = new Row(own.board(), own.deliveryId(), own.electionId(), own.areaId(), "ff".repeat(32));
        assertFalse(Arrays.equals(canonical, StoredStatement.canonical(stored, otherBallot)));
        Row noBallot = new Row(own.board(), own.deliveryId(), own.electionId(), own.areaId(), null);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> StoredStatement.canonical(stored, noBallot));
        assertTrue(e.getMessage().contains("which the row does not have"), e.getMessage());
    }

    /** Canonical bytes never hold a longer varint than needed, but any the format parses comes back as it was. */
    @Test
    void aLengthWrittenLongerThanNeededComesBackAsItWas() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        b.write(0x07);
        b.write(0x89); // 9, in two bytes
        b.write(0x00);
        b.writeBytes("Statement".getBytes(StandardCharsets.US_ASCII));
        b.write(0x81); // one field, in two bytes
        b.write(0x00);
        b.write(5);
        b.writeBytes("board".getBytes(StandardCharsets.US_ASCII));
        b.write(0x04);
        b.write(0x81); // "b", its length in two bytes
        b.write(0x00);
        b.write('b');
        byte[] canonical = b.toByteArray();
        Row row = new Row("b", null, null, null, null);
        assertArrayEquals(canonical, StoredStatement.canonical(StoredStatement.stored(canonical, row), row));
    }

    @Test
    void malformedStoredBytesAreRefusedWithTheirOffset() {
        Row row = new Row("b", "d", null, null, null);
        byte[] good =
                StoredStatement.stored(CanonicalStatement.encode(statements().get(1)), row);
        for (byte[] bad : List.of(
                new byte[0],
                new byte[] {0x02, 0x00},
                Arrays.copyOf(good, good.length - 1),
                Arrays.copyOf(good, good.length + 1),
                new byte[] {0x01, 0x07, 0x7F, 0x00},
                new byte[] {0x01, 0x0F},
                new byte[] {0x01, 0x0C},
                nested(40))) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> StoredStatement.canonical(bad, row),
                    () -> Arrays.toString(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> StoredStatement.stored(new byte[] {1, 2, 3}, row));
    }

    private static byte[] nested(int depth) {
        byte[] b = new byte[1 + depth * 2 + 1];
        b[0] = 0x01;
        for (int i = 0; i < depth; i++) {
            b[1 + i * 2] = 0x08;
            b[2 + i * 2] = 0x01;
        }
        b[b.length - 1] = 0x00;
        return b;
    }

    /** A name of today's schema without a code would be stored spelled out in every row: give it one. */
    @Test
    void everyNameOfTheSchemaHasACode() {
        Set<String> names = new TreeSet<>(PersonalCommitment.PATHS);
        walk(Statement.getClassSchema(), names, new java.util.HashSet<>());
        List<String> missing =
                names.stream().filter(n -> !StatementNames.coded(n)).toList();
        assertEquals(List.of(), missing, "add them at the end of StatementNames.NAMES");
    }

    private static void walk(Schema s, Set<String> names, Set<String> seen) {
        switch (s.getType()) {
            case RECORD -> {
                if (seen.add(s.getFullName())) {
                    names.add(s.getName());
                    for (Schema.Field f : s.getFields()) {
                        names.add(f.name());
                        walk(f.schema(), names, seen);
                    }
                }
            }
            case ENUM -> names.addAll(s.getEnumSymbols());
            case UNION -> s.getTypes().forEach(t -> walk(t, names, seen));
            case ARRAY -> walk(s.getElementType(), names, seen);
            case MAP -> walk(s.getValueType(), names, seen);
            default -> {}
        }
    }
}
