package org.electorallog.monitor;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A board's files in the C2SP tlog-tiles layout, by path relative to the log's prefix:
 * {@code checkpoint}, {@code tile/<L>/<N>[.p/<W>]}, {@code tile/entries/<N>[.p/<W>]}. Either a query
 * API's board ({@code <url>/boards/<board>/<path>}, with a bearer token when given: entry bundles
 * need an observer's) or a directory holding the same paths (a static publication or a copy).
 */
public interface TlogFiles {
    /** The file's bytes, or null when there is none. */
    byte[] get(String path) throws IOException;

    /** A board of a query API. */
    static TlogFiles api(String baseUrl, String board, String token) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String prefix =
                baseUrl.replaceAll("/+$", "") + "/boards/" + URLEncoder.encode(board, StandardCharsets.UTF_8) + "/";
        return path -> {
            HttpRequest.Builder b =
                    HttpRequest.newBuilder(URI.create(prefix + path)).timeout(Duration.ofSeconds(60));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            try {
                HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 404 || r.statusCode() == 401 || r.statusCode() == 403) {
                    return null;
                }
                if (r.statusCode() != 200) {
                    throw new IOException("GET " + prefix + path + ": HTTP " + r.statusCode());
                }
                return r.body();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted: GET " + prefix + path, e);
            }
        };
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
