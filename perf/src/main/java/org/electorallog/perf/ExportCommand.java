package org.electorallog.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.core.NoteVerifier;
import org.electorallog.export.ExportArchive;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ParquetFiles;
import org.electorallog.query.BoardExport;
import org.electorallog.store.StorageReport;
import org.electorallog.verifier.ExportVerifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The verifiable export's figures (issue 63): the largest perf board exported whole at its latest
 * checkpoint as Parquet (records a second), the files' bytes a record against the projection's,
 * {@code verify-export} over the files (records a second, verified), and docs/analysts.md's
 * turnout query in DuckDB over them (seconds, first and second run).
 */
@Command(name = "export", description = "export --format parquet and verify-export rates on the largest perf board")
final class ExportCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--board", description = "the board (default: the largest perf-N board)")
    String board;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            String name = board != null ? board : env.largestBoard();
            Path out = dirs.work.resolve("export-" + name);
            ExportArchive.delete(out);
            BoardExport.Written w = BoardExport.export(
                    env.db,
                    new BoardExport.Request(
                            name, null, null, null, out, ParquetFiles.ROWS_PER_FILE, ExportManifest.PUBLIC));
            ExportManifest m = w.manifest();
            long records = m.end() - m.start();
            long fileBytes = 0;
            for (ExportManifest.File f : m.files()) {
                fileBytes += Files.size(out.resolve(f.name()));
            }
            System.err.printf(
                    "export %s: %,d records in %.1f s (%,.0f a second), %,d bytes%n",
                    name, records, w.seconds(), records / w.seconds(), fileBytes);
            ExportVerifier.Result v =
                    ExportVerifier.verify(out, List.of(NoteVerifier.parse(env.signer.verifierKey())), List.of(), 0);
            System.err.printf(
                    "verify-export: %,d rows in %.1f s (%,.0f a second), %s%n",
                    v.rows(), v.seconds(), v.rows() / v.seconds(), v.verified() ? "verified" : v.problems());
            double[] query = new double[2];
            Map<String, Long> hours = Map.of();
            for (int i = 0; i < query.length; i++) {
                long t0 = System.nanoTime();
                hours = ParquetFiles.castVotesByHour(out);
                query[i] = (System.nanoTime() - t0) / 1e9;
            }
            StorageReport s = env.db.server().storageReport();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", name);
            r.put("records", records);
            r.put("checkpoint_size", m.size());
            r.put("files", m.files().size());
            r.put("export_seconds", Latencies.round(w.seconds()));
            r.put("export_records_per_second", Math.round(records / w.seconds()));
            r.put("parquet_bytes", fileBytes);
            r.put("parquet_bytes_per_record", Latencies.round((double) fileBytes / records));
            r.put("projection_bytes_per_record", Latencies.round(s.bytesPerRecord()));
            r.put("parquet_share_of_projection", Latencies.round(fileBytes / (double) records / s.bytesPerRecord()));
            r.put("verify_export_seconds", Latencies.round(v.seconds()));
            r.put("verify_export_records_per_second", Math.round(v.rows() / v.seconds()));
            r.put("verified", v.verified());
            r.put("problems", v.problems());
            r.put("turnout_query_seconds_first", Latencies.round(query[0]));
            r.put("turnout_query_seconds_second", Latencies.round(query[1]));
            r.put("turnout_hours", hours.size());
            r.put(
                    "turnout_query_matches_verified_counts",
                    hours.equals(v.counts().castVotesByHour()));
            r.putAll(env.describe());
            System.err.printf(
                    "turnout query: %.2f s, then %.2f s; parquet %.0f bytes a record, %.0f %% of the projection's%n",
                    query[0], query[1], (double) fileBytes / records, 100.0 * fileBytes / records / s.bytesPerRecord());
            dirs.write("export-" + PerfCommand.label(PerfCommand.roundDown(records)), r);
            ExportArchive.delete(out);
            return v.verified() ? 0 : 1;
        }
    }
}
