package org.electorallog.query;

import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.json.JavalinJackson;
import io.javalin.router.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.IncrementalVerifier;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.TlogPolicy;
import org.electorallog.store.Migrations;
import org.electorallog.store.Projection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP query API over the PostgreSQL projection: starts the server (pool, TLS, JSON, metrics)
 * and registers the route groups ({@link PublicRoutes}, {@link AnalystRoutes}, {@link AdminRoutes})
 * and the operational endpoints, each route behind the {@link Gate} (caller, role, rate limit). Stateless: run as
 * many as needed, against the primary or read replicas. Errors are RFC 9457 problems ({@link Problems}).
 */
public final class QueryApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryApi.class);
    /** CORS preflights: a protocol step, not an API operation, so they are not in the OpenAPI document. */
    static final List<String> PREFLIGHT_PATHS = List.of("/boards/*", "/openapi.json");

    private final ReadPools pools;
    private final Projection db;
    private final QueryApiSettings settings;
    private final AdminAudits audits;
    private final IncrementalVerifier verifier;
    private final HttpMetrics metrics;
    private final ProjectionSchema schema;
    private final SenderRoutes senders;
    private final List<Route> routes = new ArrayList<>();
    private final Javalin app;

    private QueryApi(ReadPools pools, QueryApiSettings settings) {
        this.pools = pools;
        this.db = pools.listings();
        this.settings = settings;
        AuditOptions auditOptions = AuditOptions.of(settings.logKeys()).withWitnesses(settings.witnesses());
        this.audits = new AdminAudits(db, auditOptions);
        this.verifier = settings.verifierEvery() == null
                ? null
                : new IncrementalVerifier(db, auditOptions, settings.verifierMemory())
                        .start(settings.verifierEvery(), settings.fullAuditEvery());
        this.metrics = new HttpMetrics(verifier, pools, !settings.witnesses().isEmpty());
        this.schema = new ProjectionSchema(db, Migrations.latestVersion());
        String behind = schema.problem();
        if (behind != null) {
            // not fatal: the projector may be starting beside this instance; readiness says why meanwhile
            LOG.warn("not ready: {}", behind);
        }
        SnapshotReads reads = new SnapshotReads(pools);
        FullTiles fullTiles = new FullTiles(settings.http().fullTiles());
        metrics.fullTiles(fullTiles);
        PublicReads reader = new PublicReads(reads, fullTiles);
        Cursor cursors = new Cursor(settings.cursorKey());
        AccessSettings access = settings.effectiveAccess();
        TlogPolicy policy = settings.witnesses().rule().withLogs(settings.logKeys());
        // every bundle names the policy served beside its checkpoint (decision 150)
        String policyName = ProofExtra.policyName(policy.text());
        HeadLinkService headLinks = new HeadLinkService(reads, fullTiles, policyName);
        ProofService proofs = new ProofService(reads, fullTiles, headLinks, policyName);
        routes.addAll(new OperationsRoutes(db, settings, metrics, schema).routes());
        routes.addAll(new PublicRoutes(
                        reader,
                        proofs,
                        headLinks,
                        new BallotLocator(reads, headLinks, policyName),
                        cursors,
                        access,
                        policy)
                .routes());
        RatePolicy limits = settings.http().limits();
        RecordListing listing = new RecordListing(reads);
        routes.addAll(new AnalystRoutes(
                        reader,
                        listing,
                        cursors,
                        new ExportSlots(limits.exportConcurrency(), limits.exportWriteTimeout()),
                        new ParquetExport(reads, listing))
                .routes());
        routes.addAll(new AdminRoutes(audits, verifier).routes());
        this.senders = new SenderRoutes(db, settings.registrar());
        routes.addAll(senders.routes());
        routes.addAll(new VoterPage(settings.logKeys(), settings.witnesses(), settings.voterLanguages()).routes());
        HttpSettings http = settings.http();
        Gate gate = new Gate(new Authenticator(access), http.limits(), TrustedProxies.parse(access.trustedProxies()));
        Cors cors = new Cors(http.corsOrigins());
        // Javalin 7 takes every route and handler up front, in the configuration (docs/dependencies.md)
        this.app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.http.maxRequestSize = http.maxBodyBytes();
            cfg.jsonMapper(new JavalinJackson(Responses.JSON, false));
            if (http.tlsKeystore() != null) {
                // HTTPS only: with a connector of our own, Javalin adds no plain HTTP one
                cfg.jetty.addConnector(
                        (server, httpConfig) -> tlsConnector(server, httpConfig, http, http.host(), settings.port()));
            } else if (http.adminPort() > 0) {
                // with any connector of our own Javalin adds none: the public one is ours too
                cfg.jetty.addConnector(
                        (server, httpConfig) -> plainConnector(server, httpConfig, http.host(), settings.port()));
            } else {
                cfg.jetty.host = http.host();
                cfg.jetty.port = settings.port();
            }
            if (http.adminPort() > 0) {
                // the admin endpoints and /metrics on a port of their own, which the public Service does not
                // expose, on the admin address (loopback unless set) and over TLS when the API has a keystore
                cfg.jetty.addConnector((server, httpConfig) -> http.tlsKeystore() != null
                        ? tlsConnector(server, httpConfig, http, http.adminHost(), http.adminPort())
                        : plainConnector(server, httpConfig, http.adminHost(), http.adminPort()));
            }
            register(cfg.routes, cors, gate);
        });
        app.start();
    }

    private void register(RoutesConfig r, Cors cors, Gate gate) {
        metrics.register(r);
        r.before(cors::apply);
        r.before(schema::require);
        PREFLIGHT_PATHS.forEach(p -> r.options(p, Cors::preflight));
        for (Route route : routes) {
            r.addEndpoint(new Endpoint(route.method(), route.path(), onItsPort(route, gate.guard(route)), Set.of()));
        }
        Problems.register(r);
    }

    /**
     * With an admin port, a route answers on one port only: the admin endpoints and /metrics on the
     * admin port, the others on the public port; /health on both (probes may use either).
     */
    private Handler onItsPort(Route route, Handler handler) {
        int adminPort = settings.http().adminPort();
        if (adminPort <= 0 || route.path().startsWith("/health")) {
            return handler;
        }
        boolean admin = HttpSettings.adminPath(route.path());
        return ctx -> {
            if ((ctx.req().getLocalPort() == adminPort) != admin) {
                throw ApiException.notFound("no endpoint at " + ctx.path() + " on this port"
                        + (admin ? "" : " (the admin port serves /admin/*, /metrics and /health)"));
            }
            handler.handle(ctx);
        };
    }

    private static ServerConnector plainConnector(Server server, HttpConfiguration httpConfig, String host, int port) {
        ServerConnector c = new ServerConnector(server, new HttpConnectionFactory(httpConfig));
        c.setHost(host);
        c.setPort(port);
        return c;
    }

    private static ServerConnector tlsConnector(
            Server server, HttpConfiguration httpConfig, HttpSettings http, String host, int port) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(http.tlsKeystore().toAbsolutePath().toString());
        tls.setKeyStoreType("PKCS12");
        if (http.tlsPassword() != null) {
            tls.setKeyStorePassword(http.tlsPassword());
        }
        httpConfig.addCustomizer(new SecureRequestCustomizer(false));
        ServerConnector c = new ServerConnector(
                server, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(httpConfig));
        c.setHost(host);
        c.setPort(port);
        return c;
    }

    /** Starts the API with the given settings, over its three pools ({@link ReadPools}). */
    public static QueryApi start(QueryApiSettings settings) {
        ReadPools pools = ReadPools.open(settings);
        try {
            QueryApi api = new QueryApi(pools, settings);
            LOG.info("query API listening on {}", api.baseUrl());
            return api;
        } catch (RuntimeException e) {
            pools.close();
            throw e;
        }
    }

    public int port() {
        int admin = settings.http().adminPort();
        for (Connector c : app.jettyServer().server().getConnectors()) {
            if (c instanceof ServerConnector sc && sc.getLocalPort() > 0 && sc.getLocalPort() != admin) {
                return sc.getLocalPort();
            }
        }
        return app.port();
    }

    /**
     * The pool exports read from (issue 41): read-only snapshots, every statement planned for its
     * own parameters (decision 20), as many connections as exports may run at once. The perf probe
     * runs its export batches on it, as an export does, without HTTP.
     */
    public Projection exportPool() {
        return pools.exports();
    }

    /**
     * Drops the pools' connections (each as soon as it is idle), after the database restarted under
     * this API: the perf probe's cold runs restart PostgreSQL before each row.
     */
    public void reconnect() {
        pools.reconnect();
    }

    /** The URL clients on this machine use (https when TLS is configured). */
    public String baseUrl() {
        String host = settings.http().host();
        return (settings.http().tlsKeystore() != null ? "https://" : "http://")
                + (host.equals("0.0.0.0") || host.equals("::")
                        ? "127.0.0.1"
                        : host.contains(":") ? "[" + host + "]" : host)
                + ":" + port();
    }

    /** The routes this instance serves, as registered (for the OpenAPI drift test). */
    List<Route> routes() {
        return List.copyOf(routes);
    }

    /** "METHOD path" of every HTTP endpoint Javalin holds, from its router (not from {@link #routes}). */
    List<String> registeredEndpoints() {
        List<String> out = new ArrayList<>();
        app.unsafe.internalRouter.allHttpHandlers().forEach(p -> {
            HandlerType m = p.endpoint.method;
            if (m.isHttpMethod()) {
                out.add(m.name() + " " + p.endpoint.path);
            }
        });
        return out;
    }

    @Override
    public void close() {
        app.stop();
        audits.close();
        if (verifier != null) {
            verifier.close();
        }
        metrics.close();
        senders.close();
        pools.close();
    }
}
