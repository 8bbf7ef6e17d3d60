package org.electorallog.witness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.electorallog.core.Cosigner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witness's HTTP interface (C2SP tlog-witness "HTTP Interface"; submission and monitoring prefix
 * are both the root): {@code POST /add-checkpoint}, {@code POST /sign-subtree} when it has an
 * ML-DSA-44 key ({@link SubtreeSigning}), and {@code GET /} describing the witness (its
 * name, its cosigner key and the logs it follows) for the people who configure clients.
 *
 * <p>On Jetty's server (issue 41): a connection silent for the read timeout is closed, a request
 * body is read without holding a thread (so clients that send headers and then nothing hold no
 * thread at all), the pool is bounded with a bounded queue, and each log is held to its rate.
 */
public final class WitnessServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WitnessServer.class);
    /** Requests larger than this are refused (a checkpoint with a proof is under 4 KiB). */
    static final int MAX_BODY_BYTES = 64 * 1024;
    /**
     * An oversized body up to this size is read (and dropped) before the 413, so its client sees
     * the answer rather than a connection closed under its upload; a larger one is cut off.
     */
    static final long DRAIN_LIMIT_BYTES = 1024 * 1024;
    /** Request line and headers larger than this are refused (431). */
    static final int MAX_HEADER_BYTES = 8 * 1024;

    /**
     * How the server holds up under load: {@code readTimeout} closes a connection that sends
     * nothing for that long; {@code threads} and {@code queue} bound the pool and its backlog;
     * {@code ratePerLog} and {@code burst} are each log's {@code add-checkpoint} rate.
     */
    public record Options(Duration readTimeout, int threads, int queue, double ratePerLog, int burst) {
        public Options {
            if (readTimeout.isNegative() || readTimeout.isZero()) {
                throw new IllegalArgumentException("the witness's read timeout must be positive, got " + readTimeout);
            }
            if (threads < 4 || queue < 1) {
                throw new IllegalArgumentException(
                        "the witness needs at least 4 threads and a queue of 1, got " + threads + " and " + queue);
            }
        }

        /** 10 s read timeout, 16 threads with a queue of 256, 10 requests a second per log with bursts of 20. */
        public static Options defaults() {
            return new Options(Duration.ofSeconds(10), 16, 256, 10, 20);
        }
    }

    private final Witness witness;
    private final Server server;
    private final ServerConnector connector;
    /** {@code add-checkpoint} requests answered (any status), for operators and the perf module. */
    private final AtomicLong requests = new AtomicLong();

    private WitnessServer(Witness witness, Server server, ServerConnector connector) {
        this.witness = witness;
        this.server = server;
        this.connector = connector;
    }

    /**
     * Starts a witness on {@code host:port} (port 0 = any free port) with its key, the logs it
     * follows and its state directory, which must have been initialised ({@link #initialise}); with
     * {@code initialise} a missing or empty one is made first (the first start only).
     */
    public static WitnessServer start(
            String host,
            int port,
            Cosigner.Key key,
            FollowedLogs logs,
            Path stateDir,
            boolean initialise,
            Options options)
            throws IOException {
        return start(host, port, List.of(key), logs, stateDir, initialise, options);
    }

    /**
     * As {@link #start(String, int, Cosigner.Key, FollowedLogs, Path, boolean, Options)} with several
     * keys: each cosigns every checkpoint (an Ed25519 {@code cosignature/v1} key and an ML-DSA-44
     * {@code subtree/v1} one, C2SP tlog-cosignature), all lines in one answer.
     */
    public static WitnessServer start(
            String host,
            int port,
            List<Cosigner.Key> keys,
            FollowedLogs logs,
            Path stateDir,
            boolean initialise,
            Options options)
            throws IOException {
        WitnessState state = initialise ? WitnessState.initialise(stateDir) : WitnessState.open(stateDir);
        SubmissionRate rate = new SubmissionRate(options.ratePerLog(), options.burst(), System::nanoTime);
        return start(host, port, new Witness(keys, logs, state, Clock.systemUTC(), rate), options);
    }

    /** Makes a new witness state directory (`electoral-log witness init`); an existing one is kept as it is. */
    public static void initialise(Path stateDir) throws IOException {
        WitnessState.initialise(stateDir);
    }

    static WitnessServer start(String host, int port, Witness witness, Options options) throws IOException {
        QueuedThreadPool pool =
                new QueuedThreadPool(options.threads(), 2, 60_000, new BlockingArrayQueue<>(options.queue()));
        pool.setName("witness-http");
        pool.setDaemon(true);
        Server server = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(options.readTimeout().toMillis());
        server.addConnector(connector);
        WitnessServer ws = new WitnessServer(witness, server, connector);
        server.setHandler(ws.new Routes());
        try {
            server.start();
        } catch (Exception e) {
            ws.close();
            throw new IOException("the witness cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        LOG.info("witness {} listening on {}:{}", witness.verifierKey(), host, connector.getLocalPort());
        return ws;
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** How many {@code add-checkpoint} requests this server has answered since it started, whatever their status. */
    public long addCheckpointRequests() {
        return requests.get();
    }

    /** The witness's cosigner verifier key (what log clients and voters configure). */
    public String verifierKey() {
        return witness.verifierKey();
    }

    /** Every cosigner key of the witness, Ed25519 first, then ML-DSA-44 if it has one. */
    public List<String> verifierKeys() {
        return witness.verifierKeys();
    }

    /**
     * The monitoring prefix's route (C2SP tlog-witness "Monitor Retrieval Mechanism"): the SHA-256
     * of an origin in lowercase hex, then {@code /checkpoint}; the monitoring prefix is the
     * submission prefix.
     */
    private static final Pattern MONITORING = Pattern.compile("/([0-9a-f]{64})/checkpoint");

    /** The routes: add-checkpoint, the monitoring checkpoint, and a description at the root. */
    private final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            Matcher monitoring = MONITORING.matcher(path);
            if (path.equals("/add-checkpoint")) {
                post(request, response, callback, "add-checkpoint", witness::addCheckpoint);
            } else if (path.equals("/sign-subtree") && witness.signsSubtrees()) {
                post(request, response, callback, "sign-subtree", witness::signSubtree);
            } else if (monitoring.matches()) {
                if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
                    response.getHeaders().put(HttpHeader.ALLOW, "GET");
                    send(response, callback, Witness.Answer.text(405, "the monitoring checkpoint takes a GET"));
                } else {
                    send(response, callback, witness.latest(monitoring.group(1)));
                }
            } else if (path.equals("/")) {
                send(response, callback, about());
            } else {
                send(
                        response,
                        callback,
                        Witness.Answer.text(
                                404,
                                "no such endpoint; this witness serves POST /add-checkpoint, POST /sign-subtree (with an "
                                        + "ML-DSA-44 key) and GET /<hex SHA-256 of an origin>/checkpoint"));
            }
            return true;
        }
    }

    /** A POST endpoint: the body read without a thread, then decided by {@code decide}. */
    private void post(
            Request request,
            Response response,
            Callback callback,
            String name,
            Function<String, Witness.Answer> decide) {
        if (!request.getMethod().equals("POST")) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            send(response, callback, Witness.Answer.text(405, name + " takes a POST"));
            return;
        }
        if (name.equals("add-checkpoint")) {
            requests.incrementAndGet();
        }
        // read without a thread: a client that sends its headers and then nothing holds none, and
        // the read timeout closes it
        RequestBody.read(request, MAX_BODY_BYTES, DRAIN_LIMIT_BYTES, new RequestBody.Outcome() {
            @Override
            public void body(byte[] bytes) {
                answer(bytes, response, callback, name, decide);
            }

            @Override
            public void tooLarge() {
                send(response, callback, tooLargeAnswer());
            }

            @Override
            public void failed(Throwable failure) {
                callback.failed(failure); // the client went away or timed out: nothing to answer
            }
        });
    }

    private void answer(
            byte[] body, Response response, Callback callback, String name, Function<String, Witness.Answer> decide) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            send(response, callback, Witness.Answer.text(400, "the request is not UTF-8"));
            return;
        }
        Witness.Answer answer;
        try {
            answer = decide.apply(text);
        } catch (RuntimeException e) {
            LOG.error("{} failed", name, e);
            answer = Witness.Answer.text(500, "the witness failed: " + e);
        }
        send(response, callback, answer);
    }

    private static Witness.Answer tooLargeAnswer() {
        return Witness.Answer.text(413, "the request is larger than " + MAX_BODY_BYTES + " bytes");
    }

    private Witness.Answer about() {
        StringBuilder sb = new StringBuilder(
                        "C2SP tlog-witness: POST /add-checkpoint, GET /<hex SHA-256 of an origin>/checkpoint\n")
                .append("cosigner keys (cosignature/v1, subtree/v1):\n");
        witness.verifierKeys().forEach(k -> sb.append("  ").append(k).append('\n'));
        sb.append("logs followed:\n");
        sb.append(witness.logs().describe());
        return new Witness.Answer(200, "text/plain; charset=utf-8", sb.toString());
    }

    private static void send(Response response, Callback callback, Witness.Answer a) {
        response.setStatus(a.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, a.contentType());
        if (a.retryAfterSeconds() > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(a.retryAfterSeconds()));
        }
        Content.Sink.write(response, true, a.body(), callback);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the witness did not stop cleanly: {}", e.toString());
        }
    }
}
