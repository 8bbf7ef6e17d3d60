package org.electorallog.query;

import io.javalin.config.RoutesConfig;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.electorallog.audit.IncrementalVerifier;

/**
 * The instance's Prometheus metrics ({@code GET /metrics}): JVM memory, threads and GC, a timer per
 * request by method, route and status, and the incremental verifier's problem count.
 */
final class HttpMetrics implements AutoCloseable {
    private static final String STARTED = "electoral-log.t0";
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    HttpMetrics(IncrementalVerifier verifier) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        if (verifier != null) {
            Gauge.builder("electoral_log_verifier_problems", verifier, v -> v.problems())
                    .description("problems the incremental verifier found")
                    .register(registry);
        }
    }

    /** Times every request. */
    void register(RoutesConfig routes) {
        routes.before(ctx -> ctx.attribute(STARTED, System.nanoTime()));
        routes.after(ctx -> {
            Long started = ctx.attribute(STARTED);
            if (started != null) {
                Endpoint matched = ctx.endpoints().lastHttpEndpoint();
                Timer.builder("electoral_log_http_requests")
                        .tag("method", ctx.method().name())
                        .tag("route", matched == null ? "unmatched" : matched.path)
                        .tag("status", String.valueOf(ctx.statusCode()))
                        .register(registry)
                        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        });
    }

    /** The Prometheus text exposition. */
    String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
