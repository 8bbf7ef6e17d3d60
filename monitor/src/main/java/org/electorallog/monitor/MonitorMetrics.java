package org.electorallog.monitor;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * The monitor's counters in the Prometheus text format, served on {@code /metrics} when a port is
 * given: findings by kind, passes that could not reach an API, and each board's verified size and
 * sealed size (-1 while open).
 */
public final class MonitorMetrics implements AutoCloseable {
    private final Map<Finding.Kind, Long> findings = new EnumMap<>(Finding.Kind.class);
    private final Map<String, long[]> boards = new TreeMap<>();
    private long unreachable;
    private HttpServer server;

    synchronized void found(Finding f) {
        findings.merge(f.kind(), 1L, Long::sum);
    }

    synchronized void unreachable() {
        unreachable++;
    }

    synchronized void verified(String board, MonitorState.Board state) {
        long size;
        try {
            size = Checkpoint.parse(SignedNote.parse(state.checkpoint()).text()).size();
        } catch (ProofException e) {
            size = -1;
        }
        boards.put(board, new long[] {size, state.sealedSize()});
    }

    /** The counters as Prometheus text. */
    public synchronized String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("# HELP electoral_log_monitor_findings_total Findings by kind since the monitor started.\n")
                .append("# TYPE electoral_log_monitor_findings_total counter\n");
        for (Finding.Kind k : Finding.Kind.values()) {
            sb.append("electoral_log_monitor_findings_total{kind=\"")
                    .append(k.name())
                    .append("\"} ")
                    .append(findings.getOrDefault(k, 0L))
                    .append('\n');
        }
        sb.append("# HELP electoral_log_monitor_unreachable_total Looks at an API that did not answer.\n")
                .append("# TYPE electoral_log_monitor_unreachable_total counter\n")
                .append("electoral_log_monitor_unreachable_total ")
                .append(unreachable)
                .append('\n');
        gauge(sb, "electoral_log_monitor_verified_size", "The size of each board's latest verified checkpoint.", 0);
        gauge(sb, "electoral_log_monitor_sealed_size", "The size each board was sealed at, -1 while open.", 1);
        return sb.toString();
    }

    private void gauge(StringBuilder sb, String name, String help, int column) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        boards.forEach((b, v) -> sb.append(name)
                .append("{board=\"")
                .append(b)
                .append("\"} ")
                .append(v[column])
                .append('\n'));
    }

    /** Serves {@code /metrics} on {@code host:port} (0: a free port); returns the port. */
    public synchronized int serve(String host, int port) {
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the monitor's metrics on " + host + ":" + port, e);
        }
        server.createContext("/metrics", ex -> {
            byte[] body = text().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server.getAddress().getPort();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
        }
    }
}
