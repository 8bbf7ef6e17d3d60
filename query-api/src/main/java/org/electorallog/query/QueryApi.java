package org.electorallog.query;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.schemas.BoardName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP query API over the PostgreSQL projection. Stateless: run as many as needed, against
 * the primary or read replicas. Errors are {@code {"error": ..., "detail": ...}} with a 4xx status
 * for a bad request, never a 500 for something the caller can fix.
 */
public final class QueryApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryApi.class);
    private static final String OPENAPI = openApi();

    private final HikariDataSource db;
    private final Javalin app;
    private final LogReader reader;
    private final QueryApiSettings settings;
    private final AdminAudits audits;
    private final org.electorallog.audit.IncrementalVerifier verifier;
    private final Cursor cursors;
    private final RecordListing listing;
    private final ProofRateLimit proofLimit;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private final io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry =
            new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    private final io.micrometer.core.instrument.binder.jvm.JvmGcMetrics gcMetrics =
            new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics();

    private QueryApi(HikariDataSource db, QueryApiSettings settings) {
        this.db = db;
        this.settings = settings;
        this.reader = new LogReader(db);
        this.cursors = new Cursor(settings.cursorKey());
        new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
        new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        this.listing = new RecordListing(db, reader);
        org.electorallog.audit.AuditOptions auditOptions = org.electorallog.audit.AuditOptions.of(settings.logKeys());
        this.audits = new AdminAudits(db, auditOptions);
        this.verifier = settings.verifierEvery() == null ? null
                : new org.electorallog.audit.IncrementalVerifier(db, auditOptions).start(settings.verifierEvery(),
                        settings.fullAuditEvery());
        if (verifier != null) {
            io.micrometer.core.instrument.Gauge.builder("electoral_log_verifier_problems", verifier,
                    v -> ((Number) v.status().get("problems")).doubleValue())
                    .description("problems the incremental verifier found").register(registry);
        }
        HttpSettings http = settings.http();
        this.proofLimit = new ProofRateLimit(http.proofRatePerMinute());
        // Javalin 7 takes every route and handler up front, in the configuration (docs/dependencies.md)
        this.app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.http.maxRequestSize = http.maxBodyBytes();
            if (http.tlsKeystore() != null) {
                // HTTPS only: with a connector of our own, Javalin adds no plain HTTP one
                cfg.jetty.addConnector((server, httpConfig) -> tlsConnector(server, httpConfig, http, settings.port()));
            } else {
                cfg.jetty.host = http.host();
                cfg.jetty.port = settings.port();
            }
            routes(cfg.routes);
        });
        app.start();
    }

    private static org.eclipse.jetty.server.ServerConnector tlsConnector(org.eclipse.jetty.server.Server server,
            org.eclipse.jetty.server.HttpConfiguration httpConfig, HttpSettings http, int port) {
        org.eclipse.jetty.util.ssl.SslContextFactory.Server tls = new org.eclipse.jetty.util.ssl.SslContextFactory.Server();
        tls.setKeyStorePath(http.tlsKeystore().toAbsolutePath().toString());
        tls.setKeyStoreType("PKCS12");
        if (http.tlsPassword() != null) {
            tls.setKeyStorePassword(http.tlsPassword());
        }
        httpConfig.addCustomizer(new org.eclipse.jetty.server.SecureRequestCustomizer(false));
        org.eclipse.jetty.server.ServerConnector c = new org.eclipse.jetty.server.ServerConnector(server,
                new org.eclipse.jetty.server.SslConnectionFactory(tls, "http/1.1"),
                new org.eclipse.jetty.server.HttpConnectionFactory(httpConfig));
        c.setHost(http.host());
        c.setPort(port);
        return c;
    }

    /** Starts the public endpoints only on {@code port} (0 = any free port) over the given database. */
    public static QueryApi start(String jdbcUrl, String user, String password, int port) {
        return start(QueryApiSettings.publicOnly(jdbcUrl, user, password, port));
    }

    /** Starts the API with the given settings. */
    public static QueryApi start(QueryApiSettings settings) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(settings.jdbcUrl());
        hc.setUsername(settings.user());
        hc.setPassword(settings.password());
        hc.setMaximumPoolSize(settings.http().dbPoolSize());
        hc.setMinimumIdle(1);
        hc.setPoolName("query-api");
        hc.setReadOnly(true);
        // a custom plan per execution: a generic plan for "kind = $1" could walk the primary key for a rare kind
        hc.addDataSourceProperty("options", "-c plan_cache_mode=force_custom_plan -c statement_timeout=60000");
        HikariDataSource ds = new HikariDataSource(hc);
        try {
            QueryApi api = new QueryApi(ds, settings);
            LOG.info("query API listening on {}", api.baseUrl());
            return api;
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    public int port() {
        return app.port();
    }

    /** The URL clients on this machine use (https when TLS is configured). */
    public String baseUrl() {
        String host = settings.http().host();
        return (settings.http().tlsKeystore() != null ? "https://" : "http://")
                + (host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host.contains(":") ? "[" + host + "]" : host)
                + ":" + port();
    }

    private void routes(io.javalin.config.RoutesConfig routes) {
        routes.get("/health", ctx -> ctx.json(Map.of("status", "ok")));
        routes.get("/health/live", ctx -> ctx.json(Map.of("status", "UP")));
        routes.get("/health/ready", ctx -> {
            boolean up;
            try (java.sql.Connection c = db.getConnection()) {
                up = c.isValid(2);
            } catch (java.sql.SQLException e) {
                up = false;
            }
            ctx.status(up ? 200 : 503).json(Map.of("status", up ? "UP" : "DOWN", "database", up ? "UP" : "DOWN"));
        });
        routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape()));
        routes.after(ctx -> {
            Long started = ctx.attribute("t0");
            if (started != null) {
                io.javalin.router.Endpoint matched = ctx.endpoints().lastHttpEndpoint();
                String route = matched == null ? "unmatched" : matched.path;
                io.micrometer.core.instrument.Timer.builder("electoral_log_http_requests")
                        .tag("method", ctx.method().name()).tag("route", route)
                        .tag("status", String.valueOf(ctx.statusCode())).register(registry)
                        .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        });
        routes.before(ctx -> ctx.attribute("t0", System.nanoTime()));
        routes.before(this::cors);
        routes.before(ctx -> {
            if (PROOF_PATH.matcher(ctx.path()).matches()) {
                long wait = proofLimit.acquire(ctx.ip(), System.nanoTime());
                if (wait > 0) {
                    ctx.header("Retry-After", Long.toString(wait));
                    throw new ApiException(429, "too many requests", "at most " + settings.http().proofRatePerMinute()
                            + " proof requests a minute per client; retry after " + wait + " s");
                }
            }
        });
        routes.options("/boards/*", ctx -> ctx.status(ctx.res().getHeader("Access-Control-Allow-Origin") != null ? 204 : 403));
        routes.options("/openapi.json", ctx -> ctx.status(ctx.res().getHeader("Access-Control-Allow-Origin") != null ? 204 : 403));
        routes.get("/boards", ctx -> ctx.json(Map.of("boards", reader.boards())));
        routes.get("/boards/{board}/checkpoint", ctx -> {
            String note = reader.latestCheckpoint(board(ctx));
            ctx.header("Cache-Control", "no-cache, max-age=2");
            ctx.contentType("text/plain; charset=utf-8").result(note);
        });
        routes.get("/boards/{board}/records/{id}", ctx -> ctx.json(reader.record(board(ctx), id(ctx))));
        routes.get("/boards/{board}/records/{id}/proof", ctx -> {
            String size = ctx.queryParam("size");
            ctx.json(reader.inclusionProof(board(ctx), id(ctx), size == null ? null : number("size", size)));
        });
        routes.get("/boards/{board}/tile/<path>", ctx -> {
            String board = board(ctx);
            org.electorallog.core.TilePath t;
            try {
                t = org.electorallog.core.TilePath.parse("tile/" + ctx.pathParam("path"));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("not a C2SP tlog-tiles path: " + e.getMessage());
            }
            byte[] body = t.entries() ? reader.entries(board, t.index(), t.width())
                    : reader.tile(board, t.level(), t.index(), t.width());
            // a tile (full, or partial at an exact width) never changes once it exists
            ctx.header("Cache-Control", "public, max-age=31536000, immutable");
            ctx.contentType("application/octet-stream").result(body);
        });
        routes.get("/boards/{board}/consistency", ctx -> {
            String from = ctx.queryParam("from");
            if (from == null) {
                throw ApiException.badRequest("from is required: the size of the tree you already trust");
            }
            String to = ctx.queryParam("to");
            ctx.json(reader.consistency(board(ctx), number("from", from), to == null ? null : number("to", to)));
        });
        routes.post("/boards/{board}/records/{id}/proof", ctx -> {
            String board = board(ctx);
            long id = id(ctx);
            String body = ctx.body();
            if (body.isBlank()) {
                throw ApiException.badRequest("the body must be the signed checkpoint note you trust");
            }
            ctx.json(reader.proofFromTrusted(board, id, body));
        });
        routes.get("/boards/{board}/records/{id}/proof-bundle", ctx -> {
            String bundle = reader.proofBundle(board(ctx), id(ctx));
            ctx.header("Content-Disposition", "inline; filename=\"record.tlog-proof\"");
            ctx.contentType("text/plain; charset=utf-8").result(bundle);
        });
        routes.get("/boards/{board}/ballots", ctx -> {
            String board = board(ctx);
            String user = text(ctx, "user_id", true);
            String election = text(ctx, "election_id", true);
            String ballot = text(ctx, "ballot_id", false);
            int limit = limit(ctx);
            String query = "ballots\u0000" + board + "\u0000" + user + "\u0000" + election + "\u0000" + ballot;
            String cursor = ctx.queryParam("cursor");
            Long before = cursor == null ? null : cursors.decode(query, cursor);
            List<Map<String, Object>> page = reader.ballots(board, user, election, ballot, before, limit);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("ballots", page);
            body.put("next_cursor", page.size() < limit ? null
                    : cursors.encode(query, (Long) page.get(page.size() - 1).get("id")));
            ctx.json(body);
        });
        routes.get("/admin/boards/{board}/records", ctx -> {
            requireAdmin(ctx);
            listRecords(ctx);
        });
        routes.get("/admin/boards/{board}/records/explain", ctx -> {
            requireAdmin(ctx);
            ctx.contentType("application/json").result(listing.explain(board(ctx), ListingQuery.parse(ctx.queryParamMap()),
                    ctx.queryParam("cursor"), cursors));
        });
        routes.get("/admin/boards/{board}/records/count/explain", ctx -> {
            requireAdmin(ctx);
            ctx.contentType("application/json").result(listing.explainCount(board(ctx), countQuery(ctx)));
        });
        routes.get("/admin/boards/{board}/records/count", ctx -> {
            requireAdmin(ctx);
            ctx.json(listing.count(board(ctx), countQuery(ctx)));
        });
        routes.get("/admin/boards/{board}/export.csv", ctx -> {
            requireAdmin(ctx);
            String board = board(ctx);
            RecordListing.Manifest m = listing.manifest(board);
            ctx.contentType("text/csv; charset=utf-8");
            ctx.header("Content-Disposition", "attachment; filename=\"" + board + ".csv\"");
            java.io.Writer w = RecordListing.writer(ctx.outputStream());
            w.write(String.join(",", RecordListing.CSV_COLUMNS) + "\r\n");
            listing.stream(board, m.size(), 2500, false, row -> RecordListing.csv(w, row));
            w.flush();
        });
        routes.get("/admin/boards/{board}/export.jsonl", ctx -> {
            requireAdmin(ctx);
            String board = board(ctx);
            RecordListing.Manifest m = listing.manifest(board);
            ctx.contentType("application/x-ndjson");
            java.io.Writer w = RecordListing.writer(ctx.outputStream());
            Map<String, Object> manifest = new LinkedHashMap<>();
            manifest.put("board", board);
            manifest.put("size", m.size());
            manifest.put("root", m.root());
            manifest.put("checkpoint", m.checkpoint());
            w.write(JSON.writeValueAsString(Map.of("manifest", manifest)) + "\n");
            listing.stream(board, m.size(), 2500, false, row -> w.write(JSON.writeValueAsString(row) + "\n"));
            w.flush();
        });
        routes.get("/admin/boards/{board}/votes.jsonl", ctx -> {
            requireAdmin(ctx);
            String board = board(ctx);
            RecordListing.Manifest m = listing.manifest(board);
            ctx.contentType("application/x-ndjson");
            java.io.Writer w = RecordListing.writer(ctx.outputStream());
            listing.stream(board, m.size(), 1000, true, row -> w.write(JSON.writeValueAsString(row) + "\n"));
            w.flush();
        });
        routes.get("/admin/boards/{board}/counts", ctx -> {
            requireAdmin(ctx);
            ctx.json(reader.counts(board(ctx)));
        });
        routes.post("/admin/boards/{board}/audits", ctx -> {
            requireAdmin(ctx);
            String id = audits.start(board(ctx));
            ctx.status(202).json(Map.of("audit", id, "status", "/admin/audits/" + id));
        });
        routes.get("/admin/audits/{id}", ctx -> {
            requireAdmin(ctx);
            ctx.json(audits.status(ctx.pathParam("id")));
        });
        routes.get("/admin/verifier", ctx -> {
            requireAdmin(ctx);
            if (verifier == null) {
                throw ApiException.notFound("the incremental verifier is not running on this instance");
            }
            ctx.json(verifier.status());
        });
        routes.get("/openapi.json", ctx -> ctx.contentType("application/json").result(OPENAPI));
        routes.exception(io.javalin.http.HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 404) {
                error(ctx, 404, "not found", "no endpoint at " + ctx.path());
            } else {
                error(ctx, e.getStatus(), e.getStatus() == 413 ? "request too large" : "request refused", e.getMessage());
            }
        });
        routes.exception(ApiException.class, (e, ctx) -> {
            ctx.header("Cache-Control", "no-store");
            error(ctx, e.status(), e.error(), e.getMessage());
        });
        routes.exception(Exception.class, (e, ctx) -> {
            LOG.error("request {} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal error", "the server failed to answer; the error is logged");
        });
        routes.error(404, ctx -> {
            String type = ctx.res().getContentType();
            if (type == null || !type.startsWith("application/json")) {
                error(ctx, 404, "not found", "no endpoint at " + ctx.path());
            }
        });
    }

    private static String openApi() {
        try (java.io.InputStream in = QueryApi.class.getResourceAsStream("/openapi.json")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalStateException("the OpenAPI document is missing from the query-api jar", e);
        }
    }

    private static void error(Context ctx, int status, String error, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("detail", detail);
        ctx.status(status).json(body);
    }

    /** Bearer-token check of the admin endpoints, in constant time. */
    /** The filters of a count request: a count takes no sort, order, limit or cursor. */
    private static ListingQuery countQuery(Context ctx) {
        for (String p : List.of("sort", "order", "limit", "cursor")) {
            if (ctx.queryParamMap().containsKey(p)) {
                throw ApiException.badRequest("a count takes filters only, not '" + p + "'");
            }
        }
        return ListingQuery.parse(ctx.queryParamMap());
    }

    /** The public proof endpoints, which the per-client rate limit covers. */
    static final java.util.regex.Pattern PROOF_PATH = java.util.regex.Pattern.compile(
            "/boards/[^/]+/(records/[^/]+/(proof|proof-bundle)|consistency)");

    /**
     * CORS for the public endpoints only: an allowed Origin gets Access-Control-Allow-Origin (and, on a
     * preflight, the allowed methods and headers); admin endpoints never answer cross-origin.
     */
    private void cors(Context ctx) {
        String origin = ctx.header("Origin");
        List<String> allowed = settings.http().corsOrigins();
        boolean publicPath = ctx.path().startsWith("/boards/") || ctx.path().equals("/boards") || ctx.path().equals("/openapi.json");
        if (origin == null || !publicPath || allowed.isEmpty()) {
            return;
        }
        if (allowed.contains("*") || allowed.contains(origin)) {
            ctx.header("Access-Control-Allow-Origin", allowed.contains("*") ? "*" : origin);
            ctx.header("Vary", "Origin");
            if (io.javalin.http.HandlerType.OPTIONS.equals(ctx.method())) {
                ctx.header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
                ctx.header("Access-Control-Allow-Headers", "Content-Type");
                ctx.header("Access-Control-Max-Age", "600");
            }
        }
    }

    private void requireAdmin(Context ctx) {
        if (settings.adminToken() == null) {
            throw new ApiException(403, "forbidden", "the admin endpoints are disabled on this instance (no admin token is configured)");
        }
        String header = ctx.header("Authorization");
        byte[] given = header != null && header.startsWith("Bearer ")
                ? header.substring(7).getBytes(java.nio.charset.StandardCharsets.UTF_8) : new byte[0];
        byte[] expected = settings.adminToken().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (!java.security.MessageDigest.isEqual(given, expected)) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"electoral-log admin\"");
            throw new ApiException(401, "unauthorized", "the admin endpoints need 'Authorization: Bearer <admin token>'");
        }
    }

    /** GET /admin/boards/{board}/records: see {@link ListingQuery} for how each request is served. */
    private void listRecords(Context ctx) {
        String board = board(ctx);
        ListingQuery q = ListingQuery.parse(ctx.queryParamMap());
        RecordListing.Page page = listing.list(board, q, ctx.queryParam("cursor"), cursors);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("records", page.records());
        body.put("next_cursor", page.nextCursor());
        body.put("served", page.served());
        ctx.json(body);
    }

    /** A text filter: at most 256 characters, no control characters; matched by equality, never as a pattern. */
    private static String text(Context ctx, String name, boolean required) {
        String v = QueryParameters.text(name, ctx.queryParam(name));
        if (v == null && required) {
            throw ApiException.badRequest(name + " is required");
        }
        return v;
    }

    private static int limit(Context ctx) {
        String v = ctx.queryParam("limit");
        return v == null ? 100 : (int) QueryParameters.bounded("limit", v, 1, 1000);
    }

    private static String board(Context ctx) {
        String b = ctx.pathParam("board");
        if (!BoardName.isValid(b)) {
            throw ApiException.badRequest("board name '" + b + "' is not valid: [a-z0-9][a-z0-9._-]{0,63}");
        }
        return b;
    }

    private static long id(Context ctx) {
        return number("record ID", ctx.pathParam("id"));
    }

    private static long number(String what, String text) {
        return QueryParameters.number(what, text);
    }

    @Override
    public void close() {
        app.stop();
        audits.close();
        if (verifier != null) {
            verifier.close();
        }
        gcMetrics.close();
        registry.close();
        db.close();
    }
}
