package org.electorallog.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx ({@code /usr/sbin/nginx}, which .ci/run installs) serving a directory with a
 * shipped server block ({@code infra/deploy/nginx-tiles.conf}) as it is, its {@code listen} and
 * {@code root} set: a main configuration of its own in {@code workDir} (pid, logs, temporary paths),
 * on a free loopback port, in the foreground of a child process. For tests and perf runs.
 */
public final class NginxServer implements AutoCloseable {
    public static final Path NGINX = Path.of("/usr/sbin/nginx");

    private final Process process;
    private final int port;

    private NginxServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts nginx with {@code serverBlock} (a file holding one {@code server} block with
     * {@code listen 8090;} and {@code root /srv/electoral-log;}) serving {@code root}, and waits
     * until it answers.
     */
    public static NginxServer start(Path serverBlock, Path root, Path workDir)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(NGINX)) {
            throw new IllegalStateException("nginx is not installed: .ci/run installs it (apt-get install nginx)");
        }
        Path work = Files.createDirectories(workDir).toAbsolutePath();
        int port = FreePorts.pick();
        String server = Files.readString(serverBlock)
                .replace("listen 8090;", "listen 127.0.0.1:" + port + ";")
                .replace("root /srv/electoral-log;", "root " + root.toAbsolutePath() + ";");
        String temp = Files.createDirectories(work.resolve("temp")).toString();
        Files.writeString(
                work.resolve("nginx.conf"),
                "daemon off;\n" + ("root".equals(System.getProperty("user.name")) ? "user root;\n" : "")
                        + "worker_processes 1;\npid " + work.resolve("nginx.pid") + ";\nerror_log "
                        + work.resolve("error.log") + " warn;\nevents { worker_connections 256; }\nhttp {\n"
                        + "access_log off;\nclient_body_temp_path " + temp + "/body;\nproxy_temp_path " + temp
                        + "/proxy;\nfastcgi_temp_path " + temp + "/fastcgi;\nuwsgi_temp_path " + temp
                        + "/uwsgi;\nscgi_temp_path " + temp + "/scgi;\n" + server + "\n}\n");
        Process p = new ProcessBuilder(NGINX.toString(), "-p", work.toString(), "-c", "nginx.conf")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("nginx.out").toFile())
                .start();
        NginxServer n = new NginxServer(p, port);
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            if (!p.isAlive()) {
                throw new IllegalStateException("nginx stopped: " + Files.readString(work.resolve("nginx.out")));
            }
            try {
                http.send(
                        HttpRequest.newBuilder(URI.create(n.baseUrl() + "/")).build(),
                        HttpResponse.BodyHandlers.discarding());
                return n;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    n.close();
                    throw new IOException("nginx did not answer on port " + port + " within 30 s", notYet);
                }
                Thread.sleep(50); // polling for the port to open
            }
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
