package org.electorallog.projector;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The projector process's HTTP side: {@code /metrics} (Prometheus text format: the projector's
 * counters, lag per partition, JVM), {@code /health/live} (503 when Kafka Streams is in ERROR, not
 * running, or has no live stream thread: a restart is the remedy; {@link Projector#alive}) and
 * {@code /health/ready} (Kafka Streams running and PostgreSQL answering; 503 otherwise).
 */
public final class ProjectorHttp implements AutoCloseable {
    private final HttpServer server;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    private ProjectorHttp(Projector projector, Witnessing witnessing, String host, int port) throws IOException {
        projector.bindTo(registry);
        if (witnessing != null) {
            witnessing.bindTo(registry);
        }
        Gauge.builder(
                        "electoral_log_projector_lag_records",
                        projector,
                        p -> p.lag().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                .description("records in the topic not yet projected, over this instance's partitions")
                .register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        gc.bindTo(registry);
        server = HttpServer.create(new InetSocketAddress(host, port), 0);
        server.createContext(
                "/metrics", x -> reply(x, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        server.createContext("/health/live", x -> {
            boolean alive = projector.alive();
            reply(
                    x,
                    alive ? 200 : 503,
                    "application/json",
                    "{\"status\":\"" + (alive ? "UP" : "DOWN") + "\",\"streams\":\"" + projector.state() + "\"}");
        });
        server.createContext("/health/ready", x -> {
            Map<String, Object> h = projector.health();
            boolean ok = Boolean.TRUE.equals(h.get("healthy"));
            reply(
                    x,
                    ok ? 200 : 503,
                    "application/json",
                    "{\"status\":\"" + (ok ? "UP" : "DOWN") + "\",\"streams\":\"" + h.get("streams")
                            + "\",\"database\":\"" + h.get("database") + "\"}");
        });
        server.start();
    }

    /** Serves the projector's metrics and health on {@code host:port} (port 0 = any free port). */
    public static ProjectorHttp start(Projector projector, String host, int port) throws IOException {
        return new ProjectorHttp(projector, null, host, port);
    }

    /** As {@link #start(Projector, String, int)}, with each witness's cosignature age ({@link Witnessing#bindTo}). */
    public static ProjectorHttp start(Projector projector, Witnessing witnessing, String host, int port)
            throws IOException {
        return new ProjectorHttp(projector, witnessing, host, port);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void reply(HttpExchange x, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type);
        x.sendResponseHeaders(status, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        gc.close();
        registry.close();
    }
}
