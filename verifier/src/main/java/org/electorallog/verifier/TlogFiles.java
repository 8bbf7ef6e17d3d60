package org.electorallog.verifier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.electorallog.core.TiledFiles;

/**
 * A board's files in the C2SP tlog-tiles layout, by path relative to the log's prefix:
 * {@code checkpoint}, {@code tile/<L>/<N>[.p/<W>]}, {@code tile/entries/<N>[.p/<W>]}. Either a query
 * API's board ({@code <url>/boards/<board>/<path>}, with a bearer token when given: entry bundles
 * need an observer's) or a directory holding the same paths (a static publication or a copy).
 */
public interface TlogFiles extends TiledFiles {
    /** {@link #sealedSize}: the source does not say (a directory holds no board state). */
    long NOT_SAID = -2;

    /** The size the board was sealed at, -1 while it is open, or {@link #NOT_SAID}. */
    default long sealedSize() throws IOException {
        return NOT_SAID;
    }

    /**
     * The board's link to the witnessed heads board (HEADS witness mode): the JSON of {@code GET
     * /boards/{board}/heads-link} on an API, the {@code heads-link} file the publisher writes beside
     * the checkpoint; null when the source has none.
     */
    default byte[] headsLink() throws IOException {
        return get("heads-link");
    }

    /**
     * The board's history: its first signed checkpoint at or past {@code size}, with the
     * cosignatures it has ({@code GET /boards/{board}/checkpoint?from=} on an API); null when the
     * source keeps no history (a directory or a static publication holds the latest only).
     */
    default byte[] checkpointFrom(long size) throws IOException {
        return null;
    }

    /** A board of a query API ({@link LogEndpoint#file}, its seal from {@code GET /boards/{board}}). */
    static TlogFiles api(String baseUrl, String board, String token) {
        LogEndpoint api = new LogEndpoint(baseUrl, token);
        return new TlogFiles() {
            @Override
            public byte[] get(String path) throws IOException {
                return api.file(board, path);
            }

            @Override
            public long sealedSize() throws IOException {
                return api.sealedSize(board);
            }

            @Override
            public byte[] checkpointFrom(long size) throws IOException {
                return api.file(board, "checkpoint?from=" + size);
            }
        };
    }

    /**
     * A board published as static files (the publisher's directory behind a web server):
     * {@code <prefix>/checkpoint}, {@code <prefix>/tile/...}; a tlog-tiles client's view, with no
     * board state (a seal is then read from the records).
     */
    static TlogFiles url(String prefix) {
        LogEndpoint files = new LogEndpoint(prefix, null);
        return path -> files.at("/" + path);
    }

    /** A directory in the tlog-tiles layout. */
    static TlogFiles directory(Path dir) {
        return path -> {
            Path f = dir.resolve(path).normalize();
            if (!f.startsWith(dir.normalize())) {
                throw new IOException("'" + path + "' leaves " + dir);
            }
            return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
        };
    }
}
