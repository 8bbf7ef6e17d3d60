package org.electorallog.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.electorallog.core.NoteVerifier;
import org.electorallog.infra.NginxServer;
import org.electorallog.monitor.Finding;
import org.electorallog.monitor.Monitor;
import org.electorallog.monitor.MonitorMetrics;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.LogEndpoint;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
import org.junit.jupiter.api.Test;

/**
 * A board served only from the published directory through nginx (Debian's, with the shipped
 * {@code infra/deploy/nginx-tiles.conf} as it is, listen and root set) verifies in
 * {@code verify-board} as a plain tlog-tiles client reads it, and the monitor follows it (a changed
 * tile is reported); the checkpoint is served
 * {@code no-cache}, tiles {@code immutable}, and the publisher's temporary files not at all.
 */
class NginxTilesTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aBoardServedByNginxFromThePublishedDirectoryVerifies() throws Exception {
        String board = "served-" + Long.toString(System.nanoTime(), 36);
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "nginx-")
                .toAbsolutePath();
        Path dir = Files.createDirectories(work.resolve("published"));
        try (Projection p = Projection.start("nginx")) {
            p.publish(PublisherTest.statements(board, "v-", 0, 300));
            p.awaitCheckpoint(board, 300);
            try (Publisher publisher = Publisher.open(p.publishing(dir, false))) {
                assertEquals(300, publisher.round().get(board).size());
            }
        }
        try (NginxServer nginx = NginxServer.start(Path.of("../infra/deploy/nginx-tiles.conf"), dir, work)) {
            String base = nginx.baseUrl() + "/" + board;
            HttpResponse<byte[]> checkpoint = get(base + "/checkpoint");
            assertEquals(
                    "no-cache", checkpoint.headers().firstValue("Cache-Control").orElse(""));
            HttpResponse<byte[]> tile = get(base + "/tile/0/000");
            assertEquals(8192, tile.body().length);
            assertEquals(
                    "public, max-age=31536000, immutable",
                    tile.headers().firstValue("Cache-Control").orElse(""));
            Files.writeString(dir.resolve(board).resolve(".publishing-1.tmp"), "half a tile");
            assertEquals(404, get(base + "/.publishing-1.tmp").statusCode(), "a temporary file is never served");

            Verification v = BoardVerifier.verify(
                    TlogFiles.url(base),
                    new VerifyOptions(
                            List.of(NoteVerifier.parse(Projection.SIGNER.verifierKey())),
                            null,
                            List.of(),
                            0,
                            List.of()),
                    (d, t, s) -> {});
            assertTrue(v.verified(), v.problems().toString());
            assertEquals(300, v.size());
            assertEquals(0, v.entries(), "entries not published: the tiles alone verified");

            // the monitor follows the same files (monitor --tiles-url): nothing to report, until a tile the
            // root is made of changes (level 1's: the hash of the first 256 leaves)
            List<String> reported = new java.util.ArrayList<>();
            assertEquals(
                    List.of(),
                    monitor(nginx, board, work.resolve("monitor-a"), reported).pass(),
                    reported.toString());
            Path tileFile = dir.resolve(board).resolve("tile/1/000.p/1");
            byte[] bytes = Files.readAllBytes(tileFile);
            bytes[0] ^= 1;
            Files.write(tileFile, bytes);
            List<Finding> found =
                    monitor(nginx, board, work.resolve("monitor-b"), reported).pass();
            assertEquals(1, found.size(), found + " " + reported);
            assertEquals(Finding.Kind.TILES_DO_NOT_MATCH, found.get(0).kind());
        }
    }

    /** A monitor of {@code board} on nginx's static publication, with its state in {@code state}. */
    static Monitor monitor(NginxServer nginx, String board, Path state, List<String> reported) {
        return new Monitor(
                new Monitor.Settings(
                        List.of(LogEndpoint.published(nginx.baseUrl())),
                        List.of(NoteVerifier.parse(Projection.SIGNER.verifierKey())),
                        List.of(),
                        "publisher-test.electoral-log.local/",
                        List.of(board),
                        state),
                new MonitorMetrics(),
                reported::add);
    }

    static HttpResponse<byte[]> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
