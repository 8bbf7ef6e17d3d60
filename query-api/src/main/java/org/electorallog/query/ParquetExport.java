package org.electorallog.query;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.electorallog.export.ExportArchive;
import org.electorallog.export.ExportManifest;
import org.electorallog.export.ParquetFiles;
import org.electorallog.store.ProjectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /admin/boards/{board}/export.parquet.zip} (issue 63): the verifiable export of
 * {@code electoral-log export --format parquet} for the analyst role, streamed as one zip archive
 * (export {@link ExportArchive}): each Parquet file goes to the client as soon as it is written and
 * is then deleted from this instance's temporary directory (java.io.tmpdir), so neither memory nor
 * disk holds more than one file's rows; {@code manifest.json} comes last. {@code view=personal}
 * adds the openings files: the analyst role may read personal values (docs/personal-data.md "What
 * each role sees"). The client verifies the archive with {@code electoral-log verify-export FILE.zip}.
 * A failure once bytes are sent cuts the archive short (no zip directory): nothing can take a
 * partial archive for a whole one.
 */
final class ParquetExport {
    private static final Logger LOG = LoggerFactory.getLogger(ParquetExport.class);

    /** The query parameters it takes. */
    static final List<String> PARAMETERS = List.of("at", "from", "to", "view");

    private final SnapshotReads reads;
    private final RecordListing listing;

    ParquetExport(SnapshotReads reads, RecordListing listing) {
        this.reads = reads;
        this.listing = listing;
    }

    void run(Context ctx) throws IOException {
        String board = RequestValues.board(ctx);
        listing.manifest(board); // 404 for a board that does not exist or has no checkpoint yet
        String view = ctx.queryParam("view") == null ? ExportManifest.PUBLIC : ctx.queryParam("view");
        Long at = RequestValues.optionalNumber(ctx, "at");
        Long from = RequestValues.optionalNumber(ctx, "from");
        Long to = RequestValues.optionalNumber(ctx, "to");
        Path dir = Files.createTempDirectory("export-").resolve("files");
        boolean[] started = {false};
        try {
            ExportArchive zip = new ExportArchive(ctx.outputStream());
            BoardExport.export(
                    reads.exports(),
                    new BoardExport.Request(board, at, from, to, dir, ParquetFiles.ROWS_PER_FILE, view),
                    file -> {
                        if (!started[0]) {
                            started[0] = true;
                            ctx.status(200);
                            ctx.contentType("application/zip");
                            ctx.header("Content-Disposition", "attachment; filename=\"" + board + "-export.zip\"");
                            if (ExportManifest.PERSONAL.equals(view)) {
                                ctx.header("Cache-Control", "private, no-store"); // personal data: no shared cache
                            }
                        }
                        zip.add(file, true);
                    });
            zip.finish();
        } catch (IllegalArgumentException e) {
            if (started[0]) {
                throw new IOException("the export of board " + board + " failed after it began: " + e.getMessage(), e);
            }
            throw ApiException.badRequest(e.getMessage());
        } catch (UncheckedIOException | ProjectionException e) {
            LOG.warn("the export of board {} failed{}: {}", board, started[0] ? " after it began" : "", e.getMessage());
            throw e;
        } finally {
            ExportArchive.delete(dir);
            Files.deleteIfExists(dir.getParent());
        }
    }
}
