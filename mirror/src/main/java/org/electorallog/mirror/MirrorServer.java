package org.electorallog.mirror;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.electorallog.core.Cosigner;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.Witness;
import org.electorallog.witness.WitnessServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mirror's HTTP interface (C2SP tlog-mirror; the submission and the monitoring prefix are both
 * the root): {@code POST /add-checkpoint}, {@code POST /sign-subtree} (with an ML-DSA-44 key),
 * {@code POST /add-entries} (plain or {@code
 * Content-Encoding: gzip}, read as a stream, so a package is stored as soon as it is whole), and
 * the copy of each log in the C2SP tlog-tiles layout at {@code /<hex SHA-256 of the origin>/}:
 * {@code checkpoint} (with the mirror's cosignatures) and {@code tile/...}. On Jetty, with a read
 * timeout and a bounded pool as the witness has.
 */
public final class MirrorServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MirrorServer.class);
    /** An {@code add-checkpoint} body larger than this is refused (a checkpoint and its proof are under 4 KiB). */
    static final int MAX_CHECKPOINT_BYTES = 64 * 1024;

    private static final Pattern CHECKPOINT = Pattern.compile("/([0-9a-f]{64})/checkpoint");
    private static final Pattern TILE = Pattern.compile("/([0-9a-f]{64})/(tile/[0-9a-z./]+)");

    /** Where the voter page is served, when the mirror serves one. */
    public static final String PAGE = "voter";

    /**
     * The voter page's headers (as the query API and the publication's nginx send them): its scripts,
     * styles and fetches from this origin only.
     */
    static final String PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final Mirror mirror;
    private final Server server;
    private final ServerConnector connector;
    /** The voter page's files by name (query-api {@code PublishedVoterPage.forMirror}), or empty. */
    private final Map<String, byte[]> page;

    private MirrorServer(Mirror mirror, Server server, ServerConnector connector, Map<String, byte[]> page) {
        this.mirror = mirror;
        this.server = server;
        this.connector = connector;
        this.page = Map.copyOf(page);
    }

    /**
     * Starts a mirror on {@code host:port} (0: any free port) with its cosigner keys (Ed25519, and
     * ML-DSA-44 if given), the logs it mirrors and its state directory; {@code initialise} makes a
     * missing state (the first start only: a mirror that lost its state would cosign a rollback).
     */
    public static MirrorServer start(
            String host,
            int port,
            List<Cosigner.Key> keys,
            FollowedLogs logs,
            Path stateDir,
            boolean initialise,
            Duration readTimeout,
            int threads)
            throws IOException {
        return start(host, port, keys, logs, stateDir, initialise, readTimeout, threads, Map.of());
    }

    /**
     * As {@link #start(String, int, List, FollowedLogs, Path, boolean, Duration, int)}, serving also
     * the voter page's files at {@code /voter/} (index.html at {@code /voter/}), which check a ballot
     * against this mirror's copy.
     */
    public static MirrorServer start(
            String host,
            int port,
            List<Cosigner.Key> keys,
            FollowedLogs logs,
            Path stateDir,
            boolean initialise,
            Duration readTimeout,
            int threads,
            Map<String, byte[]> page)
            throws IOException {
        Mirror mirror = new Mirror(keys, logs, stateDir, initialise, 10, 20);
        QueuedThreadPool pool = new QueuedThreadPool(threads, 2);
        pool.setName("mirror-http");
        pool.setDaemon(true);
        Server server = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(readTimeout.toMillis());
        server.addConnector(connector);
        MirrorServer ms = new MirrorServer(mirror, server, connector, page);
        server.setHandler(ms.new Routes());
        try {
            server.start();
        } catch (Exception e) {
            ms.close();
            throw new IOException("the mirror cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        LOG.debug("mirror {} listening on {}:{}", mirror.verifierKeys().get(0), host, connector.getLocalPort());
        return ms;
    }

    /** Makes a new mirror state directory (`electoral-log mirror init`); an existing one is kept as it is. */
    public static void initialise(Path stateDir) throws IOException {
        WitnessServer.initialise(stateDir.resolve(Mirror.PENDING));
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The mirror's cosigner keys, Ed25519 first. */
    public List<String> verifierKeys() {
        return mirror.verifierKeys();
    }

    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            String method = request.getMethod();
            Matcher checkpoint = CHECKPOINT.matcher(path);
            Matcher tile = TILE.matcher(path);
            boolean subtree = path.equals("/sign-subtree") && mirror.signsSubtrees();
            if (path.equals("/add-checkpoint") || path.equals("/add-entries") || subtree) {
                if (!method.equals("POST")) {
                    response.getHeaders().put(HttpHeader.ALLOW, "POST");
                    send(response, callback, text(405, path.substring(1) + " takes a POST"));
                } else if (path.equals("/add-checkpoint")) {
                    send(response, callback, small(request, mirror::addCheckpoint));
                } else if (subtree) {
                    send(response, callback, small(request, mirror::signSubtree));
                } else {
                    send(response, callback, addEntries(request));
                }
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                response.getHeaders().put(HttpHeader.ALLOW, "GET");
                send(response, callback, text(405, "the mirror's copy is read with GET"));
            } else if (checkpoint.matches()) {
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
                send(response, callback, mirror.checkpoint(checkpoint.group(1)));
            } else if (tile.matches()) {
                var file = mirror.tile(tile.group(1), tile.group(2));
                if (file.isEmpty()) {
                    send(response, callback, text(404, "this mirror holds no " + tile.group(2) + " of that log"));
                } else {
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                    response.write(true, ByteBuffer.wrap(Files.readAllBytes(file.get())), callback);
                }
            } else if (!page.isEmpty() && (path.equals("/" + PAGE) || path.startsWith("/" + PAGE + "/"))) {
                page(path, response, callback);
            } else if (path.equals("/")) {
                send(response, callback, about());
            } else {
                send(
                        response,
                        callback,
                        text(
                                404,
                                "no such endpoint; this mirror serves POST /add-checkpoint, POST /add-entries, "
                                        + "GET /<hex SHA-256 of an origin>/checkpoint and .../tile/..."));
            }
            return true;
        }
    }

    /** A file of the voter page, {@code /voter/} being its index.html. */
    private void page(String path, Response response, Callback callback) {
        if (path.equals("/" + PAGE)) {
            response.setStatus(301);
            response.getHeaders().put(HttpHeader.LOCATION, "/" + PAGE + "/");
            callback.succeeded();
            return;
        }
        String name = path.substring(PAGE.length() + 2);
        byte[] file = page.get(name.isEmpty() ? "index.html" : name);
        if (file == null) {
            send(response, callback, text(404, "the voter page has no " + name));
            return;
        }
        String type = name.isEmpty() || name.endsWith(".html")
                ? "text/html; charset=utf-8"
                : name.endsWith(".js")
                        ? "text/javascript; charset=utf-8"
                        : name.endsWith(".css")
                                ? "text/css; charset=utf-8"
                                : name.endsWith(".json") ? "application/json" : "application/octet-stream";
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("Content-Security-Policy", PAGE_CSP);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.write(true, ByteBuffer.wrap(file), callback);
    }

    /** A small request body (add-checkpoint, sign-subtree) read whole, as UTF-8, then decided. */
    private static Witness.Answer small(Request request, Function<String, Witness.Answer> decide) throws IOException {
        byte[] body;
        try (InputStream in = Content.Source.asInputStream(request)) {
            body = in.readNBytes(MAX_CHECKPOINT_BYTES + 1);
        }
        if (body.length > MAX_CHECKPOINT_BYTES) {
            return text(413, "the request is larger than " + MAX_CHECKPOINT_BYTES + " bytes");
        }
        try {
            return decide.apply(StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(body))
                    .toString());
        } catch (CharacterCodingException e) {
            return text(400, "the request is not UTF-8");
        }
    }

    private Witness.Answer addEntries(Request request) throws IOException {
        String encoding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
        try (InputStream raw = Content.Source.asInputStream(request)) {
            if (encoding == null || encoding.equalsIgnoreCase("identity")) {
                return mirror.addEntries(raw);
            }
            if (!encoding.equalsIgnoreCase("gzip")) {
                return text(415, "add-entries takes a body plain or with Content-Encoding: gzip, not " + encoding);
            }
            try (InputStream in = new GZIPInputStream(raw, 64 * 1024)) {
                return mirror.addEntries(in);
            }
        }
    }

    private Witness.Answer about() {
        StringBuilder sb = new StringBuilder(
                        "C2SP tlog-mirror: POST /add-checkpoint, POST /add-entries, GET /<hex SHA-256 of an origin>/"
                                + "checkpoint and /tile/...\n")
                .append("mirror cosigner keys:\n");
        mirror.verifierKeys().forEach(k -> sb.append("  ").append(k).append('\n'));
        sb.append("logs mirrored:\n");
        sb.append(mirror.logs().describe());
        return new Witness.Answer(200, "text/plain; charset=utf-8", sb.toString());
    }

    private static Witness.Answer text(int status, String message) {
        return new Witness.Answer(status, "text/plain; charset=utf-8", message + "\n");
    }

    private static void send(Response response, Callback callback, Witness.Answer a) {
        response.setStatus(a.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, a.contentType());
        if (a.status() == 200 || a.status() == 202) {
            response.getHeaders().put(HttpHeader.ACCEPT_ENCODING, "gzip");
        }
        Content.Sink.write(response, true, a.body(), callback);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the mirror did not stop cleanly: {}", e.toString());
        }
    }
}
