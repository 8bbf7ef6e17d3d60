package org.electorallog.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;

/**
 * One query API as a plain C2SP client reads it: a board's checkpoint (C2SP tlog-checkpoint), its
 * hash tiles (C2SP tlog-tiles, full or partial for a given tree size) and its state
 * ({@code GET /boards/{board}}, for the seal). A bearer token is sent when given; nothing else of
 * the API is used. Or a static publication ({@link #published}: {@code publish-tiles} behind a web
 * server, a board's files at {@code <url>/<board>/}), which lists no boards and states no seal.
 *
 * <p>Every body is read up to what its file can hold ({@link #limit}), so a hostile API cannot fill
 * the reader's memory (issue 61 item 9).
 */
public final class LogEndpoint {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The largest entry bundle: 256 entries, each a 2-byte length and up to 2^16 - 1 bytes (C2SP tlog-tiles). */
    public static final long MAX_ENTRY_BUNDLE = (long) TileLayout.TILE_WIDTH * (2 + EntryBundle.MAX_ENTRY);
    /** The largest hash tile: 256 hashes. */
    public static final long MAX_TILE = (long) TileLayout.TILE_WIDTH * Hashes.HASH_SIZE;
    /** A checkpoint with its cosignatures, a board's JSON, a heads link: small documents. */
    public static final long MAX_DOCUMENT = 1 << 20;
    /** The list of boards: 16 MiB holds some 100,000 boards. */
    public static final long MAX_BOARD_LIST = 16L << 20;

    private final String baseUrl;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * Where a board's files are under the base URL, ending in {@code /}: {@code /boards/<board>/} on
     * an API, {@code /<board>/} when published, {@code /<hex SHA-256 of its origin>/} on a mirror.
     */
    private final UnaryOperator<String> boardPath;

    /** Whether this is an API (it lists boards and states their seal), not files. */
    private final boolean isApi;

    public LogEndpoint(String baseUrl, String token) {
        this(baseUrl, token, b -> "/boards/" + enc(b) + "/", true);
    }

    private LogEndpoint(String baseUrl, String token, UnaryOperator<String> boardPath, boolean isApi) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.token = token;
        this.boardPath = boardPath;
        this.isApi = isApi;
    }

    /** A static publication's root ({@code publish-tiles} behind a web server): each board at {@code <url>/<board>/}. */
    public static LogEndpoint published(String baseUrl) {
        return new LogEndpoint(baseUrl, null, b -> "/" + enc(b) + "/", false);
    }

    /**
     * A mirror (C2SP tlog-mirror, {@code electoral-log mirror}): the board whose origin is {@code
     * originPrefix} and its name at {@code <url>/<hex SHA-256 of the origin>/}.
     */
    public static LogEndpoint mirror(String baseUrl, String originPrefix) {
        return new LogEndpoint(
                baseUrl,
                null,
                b -> "/" + Hex.encode(Hashes.sha256((originPrefix + b).getBytes(StandardCharsets.UTF_8))) + "/",
                false);
    }

    private boolean isPublished() {
        return !isApi;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The board names the API lists. */
    public List<String> boards() throws IOException {
        if (isPublished()) {
            throw new IOException("a static publication does not list its boards: name them (--board)");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode b : JSON.readTree(text("/boards", MAX_BOARD_LIST)).path("boards")) {
            out.add(b.get("board").asText());
        }
        return out;
    }

    /** The board's latest signed checkpoint note, or null when it has none yet. */
    public String checkpoint(String board) throws IOException {
        HttpResponse<byte[]> r = get(boardPath.apply(board) + "checkpoint", MAX_DOCUMENT);
        return r.statusCode() == 404 ? null : body(r, "the checkpoint of " + board);
    }

    /**
     * The size the API says the board was sealed at, or -1 while it says the board is open (and for
     * a static publication, which states no board state: the seal is then read from the records).
     */
    public long sealedSize(String board) throws IOException {
        if (isPublished()) {
            return -1;
        }
        JsonNode sealed =
                JSON.readTree(text("/boards/" + enc(board), MAX_DOCUMENT)).path("sealed");
        return sealed.isMissingNode() || sealed.isNull()
                ? -1
                : sealed.get("size").asLong();
    }

    /**
     * The board's hash tiles as of tree size {@code size}: each asked tile at the width that size
     * gives it (C2SP tlog-tiles), or the full tile's prefix where that partial tile is gone ({@link
     * PublishedTiles}); a tile the source does not have is left out.
     */
    public TileSource tiles(String board, long size) {
        return PublishedTiles.of(path -> file(board, path), size);
    }

    /**
     * A file of the board in the tlog-tiles layout ({@code checkpoint}, {@code tile/...}), or null
     * when the API has none or will not show it to this caller (401, 403: entry bundles without an
     * observer's token).
     */
    public byte[] file(String board, String path) throws IOException {
        return at(boardPath.apply(board) + path);
    }

    /**
     * The bytes at {@code path} under this endpoint's URL (a static publication's board prefix
     * serves the tlog-tiles paths there), or null on 404, 401 or 403.
     */
    public byte[] at(String path) throws IOException {
        return answer(path).body();
    }

    /**
     * What the API answered for a file: its bytes (200), or none with the status (404: it has none;
     * 401, 403: not for this caller).
     *
     * @param refused whether the file is kept from this caller rather than missing: a 401 or 403, and
     *     on a static publication a 404 too, since it leaves out the entry bundles that hold personal
     *     values (publish-tiles)
     */
    @SuppressWarnings("ArrayRecordComponent") // a response, never compared as a value
    public record Answer(int status, byte[] body, boolean refused) {}

    /** A file of the board in the tlog-tiles layout with the status it came with ({@link #file} without the status). */
    public Answer fileAnswer(String board, String path) throws IOException {
        return answer(boardPath.apply(board) + path);
    }

    private Answer answer(String path) throws IOException {
        HttpResponse<byte[]> r = get(path, limit(path));
        if (r.statusCode() == 404 || r.statusCode() == 401 || r.statusCode() == 403) {
            return new Answer(r.statusCode(), null, r.statusCode() != 404 || isPublished());
        }
        if (r.statusCode() != 200) {
            throw new IOException("GET " + baseUrl + path + ": HTTP " + r.statusCode());
        }
        return new Answer(200, r.body(), false);
    }

    /** The most a file at {@code path} can hold: an entry bundle, a hash tile, or a small document. */
    public static long limit(String path) {
        if (path.contains("/tile/entries/") || path.startsWith("tile/entries/")) {
            return MAX_ENTRY_BUNDLE;
        }
        if (path.contains("/tile/") || path.startsWith("tile/")) {
            return MAX_TILE;
        }
        return MAX_DOCUMENT;
    }

    private String text(String path, long limit) throws IOException {
        return body(get(path, limit), path);
    }

    private static String body(HttpResponse<byte[]> r, String what) throws IOException {
        if (r.statusCode() != 200) {
            throw new IOException(what + ": HTTP " + r.statusCode());
        }
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private HttpResponse<byte[]> get(String path, long limit) throws IOException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(b.build(), BoundedBody.handler(limit, "GET " + baseUrl + path));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: GET " + baseUrl + path, e);
        }
    }

    private static String enc(String board) {
        return URLEncoder.encode(board, StandardCharsets.UTF_8);
    }
}
