package org.electorallog.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            files = w.finish();
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
}
