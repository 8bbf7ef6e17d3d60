package org.electorallog.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import org.electorallog.core.Hex;

/**
 * Posts each finding to an observer's webhook (issue 69 item 3), for observers who run no
 * Prometheus: at least once, in the order found, across restarts. The findings file
 * ({@code findings.jsonl}, {@link MonitorState}) is the queue; {@value #CURSOR} in the state
 * directory counts the lines the webhook has taken (a 2xx), written after each one, so a monitor
 * that stops between a delivery and the count sends that finding again: the receiver tells a repeat
 * by its {@code Idempotency-Key} (the line's SHA-256). A failure stops the round (order is kept) and
 * the next look tries again.
 *
 * <p>The body: {@code {"finding": <the line as JSON> (or "finding_line": the text of a line that is
 * no JSON), "line": n (1-based), "evidence_sha256": hex
 * SHA-256 of the line's bytes, "findings_file_sha256": hex SHA-256 of findings.jsonl's first n
 * lines}}: with the file, the receiver can later show that the evidence it was sent is the monitor's
 * record, unchanged.
 */
public final class FindingWebhook {
    /** The file counting the findings the webhook has taken. */
    static final String CURSOR = "webhook-delivered";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI url;
    private final Path stateDir;
    private final HttpClient http;
    private final Duration timeout;

    /** What a round did: findings delivered, findings still waiting, and the failure that stopped it (or null). */
    public record Round(int delivered, long pending, String failure) {}

    public FindingWebhook(URI url, Path stateDir, Duration timeout) {
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("the webhook must be an http:// or https:// URL, not " + url);
        }
        this.url = url;
        this.stateDir = stateDir;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** Delivers every finding the webhook has not taken, in order, until one fails. */
    public Round deliver() throws IOException {
        Path file = stateDir.resolve("findings.jsonl");
        List<String> lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        int taken = Math.min(cursor(), lines.size());
        MessageDigest prefix = sha256();
        for (int i = 0; i < taken; i++) {
            prefix.update((lines.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        int delivered = 0;
        for (int i = taken; i < lines.size(); i++) {
            byte[] line = (lines.get(i) + "\n").getBytes(StandardCharsets.UTF_8);
            prefix.update(line);
            String fileHash = Hex.encode(clone(prefix).digest());
            String lineHash = Hex.encode(sha256().digest(line));
            ObjectNode body = JSON.createObjectNode();
            JsonNode finding = parse(lines.get(i));
            if (finding != null) {
                body.set("finding", finding);
            } else {
                body.put("finding_line", lines.get(i)); // a line cut short (a crash mid-append) still goes, as text
            }
            body.put("line", i + 1);
            body.put("evidence_sha256", lineHash);
            body.put("findings_file_sha256", fileHash);
            String failure = post(body.toString(), lineHash);
            if (failure != null) {
                return new Round(delivered, lines.size() - i, failure);
            }
            writeCursor(i + 1);
            delivered++;
        }
        return new Round(delivered, 0, null);
    }

    private String post(String body, String idempotencyKey) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(url)
                            .timeout(timeout)
                            .header("Content-Type", "application/json")
                            .header("Idempotency-Key", idempotencyKey)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() / 100 == 2 ? null : "the webhook " + url + " answered " + r.statusCode();
        } catch (IOException e) {
            return "the webhook " + url + " did not answer: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while posting to " + url;
        }
    }

    /** The finding's JSON, or null for a line that is not JSON: it must not hold up the findings after it. */
    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            return null;
        }
    }

    private int cursor() throws IOException {
        Path f = stateDir.resolve(CURSOR);
        if (!Files.exists(f)) {
            return 0;
        }
        String text = Files.readString(f, StandardCharsets.UTF_8).strip();
        if (!text.matches("0|[1-9][0-9]{0,9}")) {
            throw new IOException(f + " does not hold a count of delivered findings: '" + text + "'");
        }
        return Integer.parseInt(text);
    }

    private void writeCursor(int n) throws IOException {
        Path f = stateDir.resolve(CURSOR);
        Path tmp = stateDir.resolve(CURSOR + ".tmp");
        Files.writeString(tmp, n + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private static MessageDigest clone(MessageDigest d) {
        try {
            return (MessageDigest) d.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 cannot be cloned", e);
        }
    }
}
