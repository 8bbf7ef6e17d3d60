package org.electorallog.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.electorallog.infra.FreePorts;

/**
 * haproxy (the Debian package) in front of the query API instances: round robin, each instance's
 * {@code /health/ready} checked every 500 ms (two failures take it out, two successes put it back),
 * a request whose connection fails or that gets no response retried on the other instance, and the
 * caller's address passed on in {@code X-Forwarded-For} (the instances trust it from the proxy's
 * address: docs/security.md "Trusted proxies"). The configuration is written to
 * {@code haproxy.cfg} in the work directory, as an operator's would be.
 */
public final class LoadBalancer implements AutoCloseable {
    private final Process process;
    private final int port;

    private LoadBalancer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** The haproxy configuration for {@code backends} (ports on the loopback interface) on {@code port}. */
    static String configuration(int port, List<Integer> backends) {
        StringBuilder b = new StringBuilder();
        b.append("global\n  maxconn 4096\n\n");
        b.append("defaults\n  mode http\n  timeout connect 1s\n  timeout client 60s\n  timeout server 60s\n");
        b.append("  timeout check 1s\n  retries 2\n  option redispatch 1\n");
        b.append("  retry-on conn-failure empty-response response-timeout\n  option forwardfor\n\n");
        b.append("frontend query_api\n  bind 127.0.0.1:").append(port).append("\n  default_backend apis\n\n");
        b.append("backend apis\n  balance roundrobin\n  option httpchk GET /health/ready\n");
        b.append("  http-check expect status 200\n  default-server inter 500ms fall 2 rise 2\n");
        for (int i = 0; i < backends.size(); i++) {
            b.append("  server api-")
                    .append(i + 1)
                    .append(" 127.0.0.1:")
                    .append(backends.get(i))
                    .append(" check\n");
        }
        return b.toString();
    }

    /** Starts haproxy in the foreground with the configuration for {@code backends}. */
    public static LoadBalancer start(Path work, List<Integer> backends) {
        int port = FreePorts.pick();
        try {
            Path cfg = work.resolve("haproxy.cfg");
            Files.writeString(cfg, configuration(port, backends));
            List<String> command = new ArrayList<>(List.of(haproxy(), "-db", "-f", cfg.toString()));
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            work.resolve("haproxy.log").toFile()))
                    .start();
            LoadBalancer lb = new LoadBalancer(p, port);
            lb.awaitListening(Duration.ofSeconds(30));
            return lb;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start haproxy: " + e.getMessage(), e);
        }
    }

    private static String haproxy() {
        for (String candidate : List.of("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("haproxy is not installed: apt-get install haproxy (.ci/run installs it)");
    }

    private void awaitListening(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (JavaProcess.status(URI.create(baseUrl() + "/health/live")) < 0) {
            if (!process.isAlive()) {
                throw new IllegalStateException("haproxy exited with " + process.exitValue() + "; see haproxy.log");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("haproxy did not listen within " + timeout.toSeconds() + " s");
            }
            JavaProcess.pause(50); // its listening port is the condition
        }
    }

    /** The address voters and clients use: {@code http://127.0.0.1:<port>}. */
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
            process.destroyForcibly();
        }
    }
}
