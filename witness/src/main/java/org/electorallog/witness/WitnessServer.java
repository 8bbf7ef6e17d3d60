package org.electorallog.witness;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.electorallog.core.Cosigner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The witness's HTTP interface (C2SP tlog-witness "HTTP Interface"; submission and monitoring prefix
 * are both the root): {@code POST /add-checkpoint}, and {@code GET /} describing the witness (its
 * name, its cosigner key and the logs it follows) for the people who configure clients.
 */
public final class WitnessServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WitnessServer.class);
    /** Requests larger than this are refused (a checkpoint with a proof is under 4 KiB). */
    static final int MAX_BODY_BYTES = 64 * 1024;

    private final Witness witness;
    private final HttpServer server;
    private final ExecutorService threads;

    private WitnessServer(Witness witness, HttpServer server, ExecutorService threads) {
        this.witness = witness;
        this.server = server;
        this.threads = threads;
    }

    /**
     * Starts a witness on {@code host:port} (port 0 = any free port) with its key, the logs it
     * follows and its state directory.
     */
    public static WitnessServer start(String host, int port, Cosigner.Key key, FollowedLogs logs, Path stateDir)
            throws IOException {
        return start(host, port, new Witness(key, logs, new WitnessState(stateDir), Clock.systemUTC()));
    }

    static WitnessServer start(String host, int port, Witness witness) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
        ExecutorService threads = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "witness-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        WitnessServer ws = new WitnessServer(witness, server, threads);
        server.createContext("/add-checkpoint", ws::addCheckpoint);
        server.createContext("/", ws::about);
        server.start();
        LOG.info("witness {} listening on {}", witness.verifierKey(), server.getAddress());
        return ws;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The witness's cosigner verifier key (what log clients and voters configure). */
    public String verifierKey() {
        return witness.verifierKey();
    }

    private void addCheckpoint(HttpExchange ex) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("POST")) {
                ex.getResponseHeaders().set("Allow", "POST");
                send(ex, Witness.Answer.text(405, "add-checkpoint takes a POST"));
                return;
            }
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            }
            if (body.length > MAX_BODY_BYTES) {
                send(ex, Witness.Answer.text(413, "the request is larger than " + MAX_BODY_BYTES + " bytes"));
                return;
            }
            String text;
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(body))
                        .toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                send(ex, Witness.Answer.text(400, "the request is not UTF-8"));
                return;
            }
            send(ex, witness.addCheckpoint(text));
        }
    }

    private void about(HttpExchange ex) throws IOException {
        try (ex) {
            if (!ex.getRequestURI().getPath().equals("/")) {
                send(ex, Witness.Answer.text(404, "no such endpoint; this witness serves POST /add-checkpoint"));
                return;
            }
            StringBuilder sb = new StringBuilder("C2SP tlog-witness: POST /add-checkpoint\n")
                    .append("cosigner key (cosignature/v1): ")
                    .append(witness.verifierKey())
                    .append("\nlogs followed:\n");
            for (FollowedLogs.Entry e : witness.logs().entries()) {
                sb.append("  ")
                        .append(e.origin())
                        .append(' ')
                        .append(e.key().verifierKey())
                        .append('\n');
            }
            send(ex, new Witness.Answer(200, "text/plain; charset=utf-8", sb.toString()));
        }
    }

    private static void send(HttpExchange ex, Witness.Answer a) throws IOException {
        byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", a.contentType());
        ex.sendResponseHeaders(a.status(), out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
