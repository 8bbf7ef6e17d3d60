package org.electorallog.query;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
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
    private static final long MAX_ID = Long.MAX_VALUE / 2;

    private final HikariDataSource db;
    private final Javalin app;
    private final LogReader reader;

    private QueryApi(HikariDataSource db, int port) {
        this.db = db;
        this.reader = new LogReader(db);
        this.app = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.http.maxRequestSize = 64 * 1024;
        });
        routes();
        app.start("127.0.0.1", port);
    }

    /** Starts the API on {@code port} (0 = any free port) over the given database. */
    public static QueryApi start(String jdbcUrl, String user, String password, int port) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(jdbcUrl);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(8);
        hc.setMinimumIdle(1);
        hc.setPoolName("query-api");
        hc.setReadOnly(true);
        HikariDataSource ds = new HikariDataSource(hc);
        try {
            QueryApi api = new QueryApi(ds, port);
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

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    private void routes() {
        app.get("/health", ctx -> ctx.json(Map.of("status", "ok")));
        app.get("/boards", ctx -> ctx.json(Map.of("boards", reader.boards())));
        app.get("/boards/{board}/checkpoint", ctx -> {
            String note = reader.latestCheckpoint(board(ctx));
            ctx.header("Cache-Control", "no-cache, max-age=2");
            ctx.contentType("text/plain; charset=utf-8").result(note);
        });
        app.get("/boards/{board}/records/{id}", ctx -> ctx.json(reader.record(board(ctx), id(ctx))));
        app.get("/boards/{board}/records/{id}/proof", ctx -> {
            String size = ctx.queryParam("size");
            ctx.json(reader.inclusionProof(board(ctx), id(ctx), size == null ? null : number("size", size)));
        });
        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.error(), e.getMessage()));
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("request {} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal error", "the server failed to answer; the error is logged");
        });
        app.error(404, ctx -> {
            String type = ctx.res().getContentType();
            if (type == null || !type.startsWith("application/json")) {
                error(ctx, 404, "not found", "no endpoint at " + ctx.path());
            }
        });
    }

    private static void error(Context ctx, int status, String error, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("detail", detail);
        ctx.status(status).json(body);
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
        if (text.isEmpty() || text.length() > 18 || !text.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw ApiException.badRequest(what + " must be a non-negative whole number, got '" + text + "'");
        }
        long v = Long.parseLong(text);
        if (v > MAX_ID) {
            throw ApiException.badRequest(what + " " + v + " is too large");
        }
        return v;
    }

    @Override
    public void close() {
        app.stop();
        db.close();
    }
}
