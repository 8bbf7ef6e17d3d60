package org.electorallog.monitor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A hostile query API for the monitor's tests: it passes every GET to a real query API and answers
 * as it is told for the paths it is told to (a status instead, other bytes, a body past any limit).
 * It stands for the fault a real API cannot be made to commit (issue 61 item 3); the log behind it
 * is real.
 */
final class HostileApi implements AutoCloseable {
    /** What to answer instead of the real API for a path, given its real answer. */
    @FunctionalInterface
    interface Rule {
        /** The answer to send, or null to pass the real one on. */
        Answer answer(String path, HttpResponse<byte[]> real);
    }

    /** An answer: a status with a body, or a body of {@code streamBytes} zero bytes sent in chunks with no length. */
    @SuppressWarnings("ArrayRecordComponent")
    record Answer(int status, byte[] body, long streamBytes, long announcedLength) {
        static Answer status(int status) {
            return new Answer(status, new byte[0], -1, -1);
        }

        static Answer body(byte[] body) {
            return new Answer(200, body, -1, -1);
        }

        /** A body of {@code bytes} zero bytes, chunked, with no Content-Length. */
        static Answer stream(long bytes) {
            return new Answer(200, null, bytes, -1);
        }

        /** A body that announces {@code length} bytes (and sends some of them). */
        static Answer announcing(long length) {
            return new Answer(200, null, -1, length);
        }
    }

    private final HttpServer server;
    private final String upstream;
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile Rule rule = (path, real) -> null;

    HostileApi(String upstream) throws IOException {
        this.upstream = upstream.replaceAll("/+$", "");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on, answers by {@code rule}; {@code (p, r) -> null} passes everything on again. */
    void rule(Rule rule) {
        this.rule = rule;
    }

    /** A rule for the paths {@code matching} accepts; others pass. */
    static Rule on(Function<String, Boolean> matching, Answer answer) {
        return (path, real) -> matching.apply(path) ? answer : null;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(upstream + path));
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth != null) {
                b.header("Authorization", auth);
            }
            HttpResponse<byte[]> real;
            try {
                real = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            Answer a = rule.answer(path, real);
            if (a == null) {
                a = new Answer(real.statusCode(), real.body(), -1, -1);
            }
            OutputStream out = ex.getResponseBody();
            if (a.streamBytes() >= 0) {
                ex.sendResponseHeaders(a.status(), 0); // chunked
                byte[] chunk = new byte[64 * 1024];
                try {
                    for (long sent = 0; sent < a.streamBytes(); sent += chunk.length) {
                        out.write(chunk);
                    }
                } catch (IOException clientWentAway) {
                    // the reader stopped at its limit: what the test wants
                }
            } else if (a.announcedLength() >= 0) {
                ex.sendResponseHeaders(a.status(), a.announcedLength());
                try {
                    out.write(new byte[1024]);
                } catch (IOException clientWentAway) {
                    // the reader refused the length it was told
                }
            } else {
                ex.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
                out.write(a.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
