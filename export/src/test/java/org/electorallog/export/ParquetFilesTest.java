package org.electorallog.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.junit.jupiter.api.Test;

/**
 * The export's rows through DuckDB's Parquet and back: a statement of every kind (bodies, arrays,
 * an artifact) and 2,000 cast votes, written 700 rows a file, read back row for row with every
 * column equal, the files' ranges in order; a row out of leaf order is refused by the writer.
 */
class ParquetFilesTest {
    @Test
    void rowsComeBackAsWritten() throws Exception {
        Path dir = Files.createDirectories(Path.of("target/parquet-files-test-" + System.nanoTime()));
        List<byte[]> statements = new ArrayList<>();
        for (Statement s : ElectionStatements.everyKind("b")) {
            statements.add(CanonicalStatement.encode(s));
        }
        ElectionStatements made = new ElectionStatements("b", 1);
        for (int i = 0; i < 2000; i++) {
            statements.add(CanonicalStatement.encode(made.vote("voter-" + i, ElectionStatements.EPOCH_MILLIS + i)));
        }
        List<ExportRow> written = new ArrayList<>();
        List<ExportManifest.File> files;
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(dir, 700)) {
            for (int i = 0; i < statements.size(); i++) {
                ExportRow r = ExportRow.of(10 + i, statements.get(i));
                written.add(r);
                w.write(r);
            }
            files = w.finish().records();
            ExportRow late = ExportRow.of(5, statements.get(0));
            assertThrows(IllegalArgumentException.class, () -> w.write(late));
        }
        assertEquals((statements.size() + 699) / 700, files.size());
        assertEquals(10, files.get(0).first());
        for (int i = 1; i < files.size(); i++) {
            assertEquals(files.get(i - 1).end(), files.get(i).first(), "files in leaf order");
        }
        assertEquals(10 + statements.size(), files.get(files.size() - 1).end());
        List<ExportRow> read = new ArrayList<>();
        for (ExportManifest.File f : files) {
            ParquetFiles.read(dir.resolve(f.name()), read::add);
        }
        assertEquals(written.size(), read.size());
        for (int i = 0; i < read.size(); i++) {
            assertEquals("", written.get(i).differences(read.get(i)), "row " + i);
        }
        ExportRow vote = written.get(written.size() - 1);
        assertEquals("CAST_VOTE", vote.kind());
        assertTrue(vote.body().contains("\"election_id\":\"election-0\""), vote.body());
        ExportRow published = written.stream()
                .filter(r -> "ELECTION_PUBLISHED".equals(r.kind()))
                .findFirst()
                .orElseThrow();
        assertTrue(published.body().contains("\"election_ids\":["), published.body());
        assertThrows(java.io.IOException.class, () -> new ParquetFiles.Writer(dir, 700), "a directory in use");
    }

    @Test
    void openingsFilesSitBesideTheirRecordsFilesAndComeBackInOrder() throws Exception {
        Path dir = Path.of("target/parquet-openings-test-" + System.nanoTime());
        ElectionStatements made = new ElectionStatements("b", 2);
        List<Path> told = new ArrayList<>();
        List<OpenedValue> opened = new ArrayList<>();
        ParquetFiles.Writer.Written files;
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(dir, 3, true, told::add)) {
            for (int i = 0; i < 7; i++) {
                byte[] st = CanonicalStatement.encode(made.vote("voter-" + i, ElectionStatements.EPOCH_MILLIS + i));
                List<OpenedValue> mine = i == 4
                        ? List.of() // erased: a record may have no openings left
                        : List.of(
                                new OpenedValue(i, "user_id", new byte[16], "voter-" + i),
                                new OpenedValue(i, "username", new byte[16], "name-" + i));
                opened.addAll(mine);
                w.write(ExportRow.of(i, st), mine);
            }
            files = w.finish();
            ExportRow next = ExportRow.of(7, CanonicalStatement.encode(made.vote("x", 0)));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> w.write(next, List.of(new OpenedValue(6, "user_id", new byte[16], "x"))),
                    "a value of another record");
        }
        assertEquals(3, files.records().size());
        assertEquals(3, files.openings().size());
        assertEquals(
                List.of(
                        "records-00000.parquet",
                        "openings-00000.parquet",
                        "records-00001.parquet",
                        "openings-00001.parquet",
                        "records-00002.parquet",
                        "openings-00002.parquet"),
                told.stream().map(p -> p.getFileName().toString()).toList(),
                "each file told once complete, records before its openings");
        List<OpenedValue> read = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ExportManifest.File o = files.openings().get(i);
            assertEquals(files.records().get(i).first(), o.first());
            assertEquals(files.records().get(i).end(), o.end());
            try (ParquetFiles.OpeningsReader r = new ParquetFiles.OpeningsReader(dir.resolve(o.name()))) {
                for (OpenedValue v = r.next(); v != null; v = r.next()) {
                    read.add(v);
                }
            }
        }
        assertEquals(opened.size(), read.size());
        for (int i = 0; i < read.size(); i++) {
            assertEquals(opened.get(i).recordId(), read.get(i).recordId());
            assertEquals(opened.get(i).path(), read.get(i).path());
            assertEquals(opened.get(i).value(), read.get(i).value());
            assertEquals(16, read.get(i).salt().length);
        }
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(Path.of(dir + "-public"), 3)) {
            ExportRow row = ExportRow.of(0, CanonicalStatement.encode(made.vote("x", 0)));
            assertThrows(IllegalStateException.class, () -> w.write(row, List.of()), "the public view has no values");
        }
    }

    @Test
    void aFailureOnTheWritingOrReadingThreadReachesTheCaller() throws Exception {
        Path dir = Path.of("target/parquet-failure-test-" + System.nanoTime());
        ElectionStatements made = new ElectionStatements("b", 3);
        List<ExportRow> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(ExportRow.of(i, CanonicalStatement.encode(made.vote("v" + i, ElectionStatements.EPOCH_MILLIS))));
        }
        IOException thrown = assertThrows(IOException.class, () -> {
            try (ParquetFiles.Writer w = new ParquetFiles.Writer(dir, 1000, false, f -> {
                throw new IOException("the client went away");
            })) {
                for (ExportRow r : rows) {
                    w.write(r);
                }
                w.finish();
            }
        });
        assertTrue(thrown.getMessage().contains("the client went away"), thrown.getMessage());
        Path whole = Path.of(dir + "-whole");
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(whole, 5000)) {
            for (ExportRow r : rows) {
                w.write(r);
            }
            w.finish();
        }
        int[] seen = {0};
        IOException stopped = assertThrows(
                IOException.class,
                () -> ParquetFiles.read(whole.resolve("records-00000.parquet"), r -> {
                    if (++seen[0] == 3000) {
                        throw new IOException("the checker stopped");
                    }
                }));
        assertEquals("the checker stopped", stopped.getMessage());
        List<ExportRow> again = new ArrayList<>();
        ParquetFiles.read(whole.resolve("records-00000.parquet"), again::add);
        assertEquals(5000, again.size(), "every row, in order, through the reading thread");
        assertEquals(4999, again.get(4999).recordId());
    }
}
