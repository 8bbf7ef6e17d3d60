package org.electorallog.monitor;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * The monitor's metrics, Micrometer's Prometheus registry as in the log's other processes, served
 * on {@code /metrics} when a port is given: findings by kind (every kind from 0, so that the first
 * finding is an increase; infra/deploy/monitor-rules.yml alerts on it), looks that could not reach
 * an API, each board's verified size and sealed size (-1 while open), and the findings a webhook has
 * yet to take.
 */
public final class MonitorMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Finding.Kind, Counter> findings = new EnumMap<>(Finding.Kind.class);
    private final Counter unreachable;
    private final Map<String, long[]> boards = new TreeMap<>();
    private final MultiGauge verifiedSize;
    private final MultiGauge sealedSize;
    private final AtomicLong webhookPending = new AtomicLong();
    private final Counter webhookFailures;
    private HttpServer server;

    public MonitorMetrics() {
        for (Finding.Kind k : Finding.Kind.values()) {
            findings.put(
                    k,
                    Counter.builder("electoral_log_monitor_findings")
                            .description("Findings by kind since the monitor started.")
                            .tag("kind", k.name())
                            .register(registry));
        }
        unreachable = Counter.builder("electoral_log_monitor_unreachable")
                .description("Looks at an API that did not answer.")
                .register(registry);
        verifiedSize = MultiGauge.builder("electoral_log_monitor_verified_size")
                .description("The size of each board's latest verified checkpoint.")
                .register(registry);
        sealedSize = MultiGauge.builder("electoral_log_monitor_sealed_size")
                .description("The size each board was sealed at, -1 while open.")
                .register(registry);
        Gauge.builder("electoral_log_monitor_webhook_pending", webhookPending, AtomicLong::get)
                .description("Findings recorded that the webhook has not taken yet.")
                .register(registry);
        webhookFailures = Counter.builder("electoral_log_monitor_webhook_failures")
                .description("Deliveries to the webhook that failed (retried at the next look).")
                .register(registry);
    }

    synchronized void found(Finding f) {
        findings.get(f.kind()).increment();
    }

    synchronized void unreachable() {
        unreachable.increment();
    }

    synchronized void verified(String board, MonitorState.Board state) {
        long size;
        try {
            size = Checkpoint.parse(SignedNote.parse(state.checkpoint()).text()).size();
        } catch (ProofException e) {
            size = -1;
        }
        boards.put(board, new long[] {size, state.sealedSize()});
        List<MultiGauge.Row<?>> verified = new ArrayList<>();
        List<MultiGauge.Row<?>> sealed = new ArrayList<>();
        boards.forEach((b, v) -> {
            verified.add(MultiGauge.Row.of(Tags.of("board", b), v[0]));
            sealed.add(MultiGauge.Row.of(Tags.of("board", b), v[1]));
        });
        verifiedSize.register(verified, true);
        sealedSize.register(sealed, true);
    }

    /** The webhook's backlog after a delivery round, and whether a delivery failed in it. */
    public synchronized void webhook(long pending, boolean failed) {
        webhookPending.set(pending);
        if (failed) {
            webhookFailures.increment();
        }
    }

    /** The metrics as Prometheus text. */
    public String text() {
        return registry.scrape();
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
        registry.close();
    }
}
