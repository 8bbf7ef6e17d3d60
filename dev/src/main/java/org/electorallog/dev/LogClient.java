package org.electorallog.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A small client of the query API, as a voter's or observer's verifier uses it. */
public final class LogClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public LogClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** An inclusion proof as served. */
    @SuppressWarnings("ArrayRecordComponent") // a proof as read, never compared as a value
    public record InclusionProof(long index, long size, byte[] leafHash, List<byte[]> hashes, byte[] root) {}

    public String get(String path) throws IOException {
        HttpResponse<String> r = send(path);
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /**
     * GET {@code path}. A 429 is waited out as its {@code Retry-After} says (at most 60 s a time,
     * {@value #RATE_LIMIT_RETRIES} times), as a client of a rate-limited API must (docs/security.md
     * "Rate limits"); then the 429 is the answer.
     */
    public HttpResponse<String> send(String path) throws IOException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            for (int i = 0; i < RATE_LIMIT_RETRIES && r.statusCode() == 429; i++) {
                long seconds = r.headers()
                        .firstValue("Retry-After")
                        .map(LogClient::seconds)
                        .orElse(1L);
                Thread.sleep(Math.min(60, seconds) * 1000); // the server's own answer: when to come back
                r = http.send(req, HttpResponse.BodyHandlers.ofString());
            }
            return r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** How often a 429 is waited out before it is the answer. */
    static final int RATE_LIMIT_RETRIES = 5;

    private static long seconds(String retryAfter) {
        try {
            return Math.max(1, Long.parseLong(retryAfter.strip()));
        } catch (NumberFormatException e) {
            return 1; // an HTTP date, which our API never sends: try again in a second
        }
    }

    /** Board name to size, from GET /boards. */
    public Map<String, Long> boardSizes() throws IOException {
        Map<String, Long> out = new HashMap<>();
        for (JsonNode b : JSON.readTree(get("/boards")).get("boards")) {
            out.put(b.get("board").asText(), b.get("size").asLong());
        }
        return out;
    }

    /** The size a board was sealed at (GET /boards/{board}), or -1 while it is open. */
    public long sealedSize(String board) throws IOException {
        JsonNode sealed = JSON.readTree(get("/boards/" + board)).path("sealed");
        return sealed.isMissingNode() || sealed.isNull()
                ? -1
                : sealed.get("size").asLong();
    }

    public String checkpoint(String board) throws IOException {
        return get("/boards/" + board + "/checkpoint");
    }

    public InclusionProof proof(String board, long id, Long size) throws IOException {
        JsonNode n = JSON.readTree(
                get("/boards/" + board + "/records/" + id + "/proof" + (size == null ? "" : "?size=" + size)));
        List<byte[]> hashes = new ArrayList<>();
        for (JsonNode h : n.get("hashes")) {
            hashes.add(Base64.getDecoder().decode(h.asText()));
        }
        return new InclusionProof(
                n.get("index").asLong(),
                n.get("size").asLong(),
                Base64.getDecoder().decode(n.get("leaf_hash").asText()),
                hashes,
                Base64.getDecoder().decode(n.get("root").asText()));
    }

    public JsonNode record(String board, long id) throws IOException {
        return JSON.readTree(get("/boards/" + board + "/records/" + id));
    }
}
