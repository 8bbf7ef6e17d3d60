package org.electorallog.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.electorallog.core.NoteVerifier;
import org.electorallog.monitor.BoardVerifier;
import org.electorallog.monitor.TlogFiles;
import org.electorallog.monitor.Verification;
import org.electorallog.monitor.VerifyOptions;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.Test;

/**
 * A board served only from the published directory through nginx (Debian's, with the shipped
 * {@code infra/deploy/nginx-tiles.conf} as it is, listen and root set) verifies in
 * {@code verify-board} as a plain tlog-tiles client reads it; the checkpoint is served
 * {@code no-cache}, tiles {@code immutable}, and the publisher's state file not at all.
 */
class NginxTilesTest {
    static final Path NGINX = Path.of("/usr/sbin/nginx");
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aBoardServedByNginxFromThePublishedDirectoryVerifies() throws Exception {
        assertTrue(Files.isExecutable(NGINX), "nginx is not installed: .ci/run installs it (apt-get install nginx)");
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
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String server = Files.readString(Path.of("../infra/deploy/nginx-tiles.conf"))
                .replace("listen 8090;", "listen 127.0.0.1:" + port + ";")
                .replace("root /srv/electoral-log;", "root " + dir + ";");
        String temp = work.resolve("temp").toString();
        Files.writeString(
                work.resolve("nginx.conf"),
                "daemon off;\n" + ("root".equals(System.getProperty("user.name")) ? "user root;\n" : "")
                        + "worker_processes 1;\npid " + work.resolve("nginx.pid") + ";\nerror_log "
                        + work.resolve("error.log") + " warn;\nevents { worker_connections 64; }\nhttp {\n"
                        + "access_log off;\nclient_body_temp_path " + temp + "/body;\nproxy_temp_path " + temp
                        + "/proxy;\nfastcgi_temp_path " + temp + "/fastcgi;\nuwsgi_temp_path " + temp
                        + "/uwsgi;\nscgi_temp_path " + temp + "/scgi;\n" + server + "\n}\n");
        Files.createDirectories(work.resolve("temp"));
        Process nginx = new ProcessBuilder(NGINX.toString(), "-p", work.toString(), "-c", "nginx.conf")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("nginx.out").toFile())
                .start();
        try {
            String base = "http://127.0.0.1:" + port + "/" + board;
            Poll.until(Duration.ofSeconds(30), "nginx to serve " + base, () -> {
                assertTrue(nginx.isAlive(), () -> "nginx stopped: " + read(work.resolve("nginx.out")));
                try {
                    return get(base + "/checkpoint").statusCode() == 200;
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            HttpResponse<byte[]> checkpoint = get(base + "/checkpoint");
            assertEquals(
                    "no-cache", checkpoint.headers().firstValue("Cache-Control").orElse(""));
            HttpResponse<byte[]> tile = get(base + "/tile/0/000");
            assertEquals(8192, tile.body().length);
            assertEquals(
                    "public, max-age=31536000, immutable",
                    tile.headers().firstValue("Cache-Control").orElse(""));
            assertEquals(404, get(base + "/" + BoardPublication.STATE).statusCode(), "the state file is not served");

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
        } finally {
            nginx.destroy();
            nginx.waitFor();
        }
    }

    static HttpResponse<byte[]> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String read(Path f) {
        try {
            return Files.exists(f) ? Files.readString(f) : "";
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
