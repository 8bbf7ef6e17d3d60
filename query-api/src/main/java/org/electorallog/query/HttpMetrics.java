package org.electorallog.query;

import io.javalin.config.RoutesConfig;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.electorallog.audit.IncrementalVerifier;
import org.electorallog.store.Boards;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;

/**
 * The instance's Prometheus metrics ({@code GET /metrics}): JVM memory, threads and GC, the
 * PostgreSQL pool (HikariCP), a histogram of requests by method, route and status, the incremental
 * verifier's problem count, and per board its size, the records not yet in a signed checkpoint and
 * the age of its latest checkpoint (read from the projection at each scrape).
 */
final class HttpMetrics implements AutoCloseable {
    private static final String STARTED = "electoral-log.t0";
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    private final Projection db;
    private final MultiGauge boardSize;
    private final MultiGauge uncheckpointed;
    private final MultiGauge checkpointAge;
    /** Null without witnesses (ELECTORAL_LOG_WITNESSES). */
    private final MultiGauge unwitnessed;

    HttpMetrics(IncrementalVerifier verifier, ReadPools pools, boolean witnessed) {
        this.db = pools.listings();
        // each pool's metrics carry its name: query-api, query-api-proofs and query-api-exports
        pools.listings().reportTo(registry);
        pools.proofs().reportTo(registry);
        pools.exports().reportTo(registry);
        boardSize = MultiGauge.builder("electoral_log_board_size")
                .description("records on the board")
                .register(registry);
        uncheckpointed = MultiGauge.builder("electoral_log_board_uncheckpointed_records")
                .description("records on the board not yet covered by a signed checkpoint")
                .register(registry);
        checkpointAge = MultiGauge.builder("electoral_log_checkpoint_age_seconds")
                .description("seconds since the board's latest checkpoint was signed")
                .register(registry);
        unwitnessed = witnessed
                ? MultiGauge.builder("electoral_log_board_unwitnessed_records")
                        .description("records on the board not yet covered by a checkpoint the witness quorum cosigned")
                        .register(registry)
                : null;
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        if (verifier != null) {
            Gauge.builder("electoral_log_verifier_problems", verifier, v -> v.problems())
                    .description("problems the incremental verifier found")
                    .register(registry);
        }
    }

    /** The full tile cache's hits, misses (tiles the database gave) and size. */
    void fullTiles(FullTiles tiles) {
        FunctionCounter.builder("electoral_log_full_tiles_hits", tiles, t -> t.hits.doubleValue())
                .description("tile reads answered from memory (full tiles, issue 45)")
                .register(registry);
        FunctionCounter.builder("electoral_log_full_tiles_misses", tiles, t -> t.misses.doubleValue())
                .description("tile reads the memory could not answer (not read yet, evicted, or partial)")
                .register(registry);
        Gauge.builder("electoral_log_full_tiles_held", tiles, FullTiles::size)
                .description("full tiles held in memory")
                .register(registry);
    }

    /** Bucket boundaries of request durations, 1 ms to 10 s: p95 by route from Prometheus ({@code histogram_quantile}). */
    static final Duration[] BUCKETS = LongStream.of(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
            .mapToObj(Duration::ofMillis)
            .toArray(Duration[]::new);

    /** Each (method, route, status)'s timer, built once: a tile from memory costs little more than this lookup. */
    private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();

    /** Times every request. */
    void register(RoutesConfig routes) {
        routes.before(ctx -> ctx.attribute(STARTED, System.nanoTime()));
        routes.after(ctx -> {
            Long started = ctx.attribute(STARTED);
            if (started != null) {
                Endpoint matched = ctx.endpoints().lastHttpEndpoint();
                String method = ctx.method().name();
                String route = matched == null ? "unmatched" : matched.path;
                int status = ctx.statusCode();
                timers.computeIfAbsent(
                                method + ' ' + route + ' ' + status,
                                k -> Timer.builder("electoral_log_http_requests")
                                        .serviceLevelObjectives(BUCKETS)
                                        .tag("method", method)
                                        .tag("route", route)
                                        .tag("status", String.valueOf(status))
                                        .register(registry))
                        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        });
    }

    /** The Prometheus text exposition. */
    String scrape() {
        refreshBoards();
        return registry.scrape();
    }

    private void refreshBoards() {
        List<Boards.Head> heads;
        try {
            heads = db.heads();
        } catch (ProjectionException e) {
            // the database is away: the board gauges disappear and /health/ready says why
            heads = List.of();
        }
        perBoard(boardSize, heads, h -> (double) h.size());
        perBoard(uncheckpointed, heads, h -> (double) Math.max(0, h.size() - h.checkpointedSize()));
        perBoard(checkpointAge, heads, Boards.Head::checkpointAgeSeconds);
        if (unwitnessed != null) {
            perBoard(unwitnessed, heads, h -> (double) Math.max(0, h.size() - h.witnessedSize()));
        }
    }

    /** One row a board (none for a board whose value is null), replacing the gauge's rows. */
    private static void perBoard(MultiGauge gauge, List<Boards.Head> heads, Function<Boards.Head, Double> value) {
        gauge.register(
                heads.stream()
                        .filter(h -> value.apply(h) != null)
                        .map(h -> MultiGauge.Row.of(Tags.of("board", h.name()), value.apply(h)))
                        .toList(),
                true);
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
