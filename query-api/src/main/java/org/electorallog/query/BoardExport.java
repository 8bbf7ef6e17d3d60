package org.electorallog.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.RangeProof;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ExportRow;
import org.electorallog.export.OpenedValue;
import org.electorallog.export.ParquetFiles;
import org.electorallog.statement.PersonalOpenings.Opening;
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
 * The personal view adds, beside each records file, the opened values the projection still holds of
 * its records (store V21 records.openings; for the roles that may read them: the caller decides).
 */
public final class BoardExport {
    private BoardExport() {}

    /**
     * What to export: the board, the checkpoint size (null: the latest witnessed checkpoint, else
     * the latest), the range (nulls: the whole tree at that size), where, rows a file, and the view
     * (export {@link ExportManifest#PUBLIC} or {@link ExportManifest#PERSONAL}).
     */
    public record Request(String board, Long at, Long from, Long to, Path out, int rowsPerFile, String view) {
        public Request {
            if (!ExportManifest.PUBLIC.equals(view) && !ExportManifest.PERSONAL.equals(view)) {
                throw new IllegalArgumentException("the view '" + view + "' is not one of "
                        + ExportManifest.PUBLIC + " (anyone's) and " + ExportManifest.PERSONAL
                        + " (with the opened personal values)");
            }
        }

        boolean personal() {
            return ExportManifest.PERSONAL.equals(view);
        }
    }

    /** What was written: the manifest and whether its checkpoint carries witnessed cosignatures. */
    public record Written(ExportManifest manifest, boolean witnessed, double seconds) {}

    /** Writes the export {@code q} asks for from one snapshot of {@code db}; a bad request is an IllegalArgumentException. */
    public static Written export(Projection db, Request q) {
        return export(db, q, f -> {});
    }

    /**
     * As {@link #export(Projection, Request)}, telling {@code listener} each Parquet file once it is
     * complete (the query API streams them as they come) and the manifest last.
     */
    public static Written export(Projection db, Request q, ParquetFiles.FileListener listener) {
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
            ParquetFiles.Writer.Written files = write(r, boardId, start, end, q, listener);
            ExportManifest m = new ExportManifest(
                    q.board(), start, end, size, note.toString(), q.view(), files.records(), files.openings(), proof);
            try {
                m.write(q.out());
                listener.written(q.out().resolve(ExportManifest.NAME));
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

    private static ParquetFiles.Writer.Written write(
            LogReader r, short boardId, long start, long end, Request q, ParquetFiles.FileListener listener) {
        try (ParquetFiles.Writer w = new ParquetFiles.Writer(q.out(), q.rowsPerFile(), q.personal(), listener)) {
            if (q.personal()) {
                r.openedStatements(boardId, start, end, (id, statement, openings) -> {
                    List<OpenedValue> opened = new ArrayList<>(openings.size());
                    for (Opening o : openings) {
                        opened.add(new OpenedValue(id, o.path(), o.salt(), o.value()));
                    }
                    written(() -> w.write(ExportRow.of(id, statement), opened));
                });
            } else {
                r.statements(boardId, start, end, (id, statement) -> {
                    written(() -> w.write(ExportRow.of(id, statement)));
                    return true;
                });
            }
            ParquetFiles.Writer.Written files = w.finish();
            List<ExportManifest.File> records = files.records();
            long written =
                    records.isEmpty() ? start : records.get(records.size() - 1).end();
            if (written != end) {
                throw new IllegalStateException(
                        "the projection holds records up to " + written + ", not " + end + ": run electoral-log audit");
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("writing the export into " + q.out(), e);
        }
    }

    /** A write of the writer's, its IOException carried out of the store's pass. */
    private interface Write {
        void run() throws IOException;
    }

    private static void written(Write w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
