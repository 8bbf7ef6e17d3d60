package org.electorallog.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedSet;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.RangeProof;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ExportRow;
import org.electorallog.export.ParquetFiles;
import org.electorallog.store.BoardState;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Cosignatures;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;

/**
 * A verifiable export as an operation (issue 63; {@code electoral-log export --format parquet} runs it): in one snapshot of the
 * projection, the board's records {@code [start, end)} at a checkpoint the log signed, written as
 * Parquet files (export {@link ParquetFiles}, one row a record made from its canonical bytes) with
 * the manifest beside them: the checkpoint with its stored cosignatures, each file's SHA-256 and
 * range, and the range proof from the stored tiles (core {@link RangeProof}, {@link ProofBuilder}).
 */
public final class BoardExport {
    private BoardExport() {}

    /**
     * What to export: the board, the checkpoint size (null: the latest witnessed checkpoint, else
     * the latest), the range (nulls: the whole tree at that size), where, and rows a file.
     */
    public record Request(String board, Long at, Long from, Long to, Path out, int rowsPerFile) {}

    /** What was written: the manifest and whether its checkpoint carries witnessed cosignatures. */
    public record Written(ExportManifest manifest, boolean witnessed, double seconds) {}

    /** Writes the export {@code q} asks for from one snapshot of {@code db}; a bad request is an IllegalArgumentException. */
    public static Written export(Projection db, Request q) {
        long t0 = System.nanoTime();
        return db.read(r -> {
            BoardState state = r.state(q.board())
                    .orElseThrow(() -> new IllegalArgumentException("there is no board named '" + q.board() + "'"));
            short boardId = state.board().id();
            SortedSet<Long> witnessed = r.witnessedSizes(boardId);
            CheckpointRow cp = checkpoint(r.checkpoints(boardId), witnessed, q.at(), q.board());
            long size = cp.size();
            long start = q.from() == null ? 0 : q.from();
            long end = q.to() == null ? size : q.to();
            if (start < 0 || end <= start || end > size) {
                throw new IllegalArgumentException("the range [" + start + ", " + end + ") is not a non-empty range "
                        + "of the checkpoint's " + size + " records");
            }
            StringBuilder note = new StringBuilder(cp.note());
            for (Cosignatures.Stored s : r.cosignatures(boardId).getOrDefault(size, List.of())) {
                note.append(s.line());
            }
            List<byte[]> proof = ProofBuilder.hashRanges(RangeProof.ranges(start, end, size), r.tileSource(boardId));
            List<ExportManifest.File> files = write(r, boardId, start, end, q);
            ExportManifest m = new ExportManifest(
                    q.board(), start, end, size, note.toString(), ExportManifest.PUBLIC, files, proof);
            try {
                m.write(q.out());
            } catch (IOException e) {
                throw new UncheckedIOException("writing the manifest into " + q.out(), e);
            }
            return new Written(m, witnessed.contains(size), (System.nanoTime() - t0) / 1e9);
        });
    }

    /** The checkpoint at {@code at}, or the latest witnessed one, or the latest. */
    private static CheckpointRow checkpoint(List<CheckpointRow> all, SortedSet<Long> witnessed, Long at, String board) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("board '" + board + "' has no signed checkpoint yet: nothing to bind an "
                    + "export to; wait for the projector's next checkpoint");
        }
        long size =
                at != null ? at : witnessed.isEmpty() ? all.get(all.size() - 1).size() : witnessed.last();
        return all.stream()
                .filter(c -> c.size() == size)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("board '" + board + "' has no checkpoint at size "
                        + size + "; its latest is at " + all.get(all.size() - 1).size()
                        + " (give --at the size of a checkpoint the log signed)"));
    }

    private static List<ExportManifest.File> write(LogReader r, short boardId, long start, long end, Request q) {
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(q.out(), q.rowsPerFile())) {
            r.statements(boardId, start, end, (id, statement) -> {
                try {
                    w.write(ExportRow.of(id, statement));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return true;
            });
            List<ExportManifest.File> files = w.finish();
            long written = files.isEmpty() ? start : files.get(files.size() - 1).end();
            if (written != end) {
                throw new IllegalStateException(
                        "the projection holds records up to " + written + ", not " + end + ": run electoral-log audit");
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("writing the export into " + q.out(), e);
        }
    }
}
