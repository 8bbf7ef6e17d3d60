package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.electorallog.core.Hex;
import org.junit.jupiter.api.Test;

/**
 * Issue 69 item 3: the monitor posts each finding to an observer's webhook at least once, in order,
 * with the evidence's hashes, and tries again after a refusal or a restart. The receiver is an HTTP
 * server of the test's own (the observer's service; it refuses the first posts as an outage would).
 */
class FindingWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyFindingReachesTheWebhookInOrderAtLeastOnce() throws Exception {
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "webhook-");
        MonitorState findings = new MonitorState(state);
        List<JsonNode> received = Collections.synchronizedList(new ArrayList<>());
        List<String> keys = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger refuse = new AtomicInteger(2); // the first two posts meet an outage
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            int status = refuse.getAndDecrement() > 0 ? 503 : 204;
            if (status == 204) {
                received.add(JSON.readTree(body));
                keys.add(ex.getRequestHeaders().getFirst("Idempotency-Key"));
            }
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        receiver.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
            findings.append(finding(Finding.Kind.FORK, "board-a"));
            findings.append(finding(Finding.Kind.SEALED_BOARD_GREW, "board-b"));
            FindingWebhook webhook = new FindingWebhook(url, state, Duration.ofSeconds(5));

            FindingWebhook.Round first = webhook.deliver();
            assertEquals(0, first.delivered());
            assertEquals(2, first.pending(), "a refusal stops the round: order is kept");
            assertTrue(first.failure().contains("503"), first.failure());
            FindingWebhook.Round second = webhook.deliver();
            assertEquals(0, second.delivered(), "still refused");

            FindingWebhook.Round third = webhook.deliver();
            assertEquals(2, third.delivered());
            assertEquals(0, third.pending());
            assertNull(third.failure());
            assertEquals(
                    List.of("FORK", "SEALED_BOARD_GREW"),
                    received.stream()
                            .map(r -> r.get("finding").get("kind").asText())
                            .toList());
            List<String> lines = Files.readAllLines(state.resolve("findings.jsonl"));
            for (int i = 0; i < 2; i++) {
                JsonNode r = received.get(i);
                assertEquals(i + 1, r.get("line").asInt());
                String line = lines.get(i) + "\n";
                assertEquals(sha256(line), r.get("evidence_sha256").asText());
                assertEquals(r.get("evidence_sha256").asText(), keys.get(i), "the Idempotency-Key");
                assertEquals(
                        sha256(String.join(
                                "",
                                lines.subList(0, i + 1).stream()
                                        .map(l -> l + "\n")
                                        .toList())),
                        r.get("findings_file_sha256").asText(),
                        "the findings file up to this finding");
            }

            // a restarted monitor sends only what is new
            findings.append(finding(Finding.Kind.BAD_SIGNATURE, "board-a"));
            FindingWebhook restarted = new FindingWebhook(url, state, Duration.ofSeconds(5));
            assertEquals(1, restarted.deliver().delivered());
            assertEquals(3, received.size());
            assertEquals(
                    "BAD_SIGNATURE", received.get(2).get("finding").get("kind").asText());
            assertEquals(0, restarted.deliver().delivered(), "nothing twice while the count is kept");

            // a count lost between a delivery and its write: the findings go again, under the same keys
            Files.writeString(state.resolve(FindingWebhook.CURSOR), "1\n");
            assertEquals(2, restarted.deliver().delivered());
            assertEquals(keys.subList(1, 3), keys.subList(3, 5), "the receiver can tell the repeats");

            // a line cut short (a crash mid-append) goes as text and does not hold up the next finding
            Files.writeString(
                    state.resolve("findings.jsonl"),
                    "{\"kind\":\"FO\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            findings.append(finding(Finding.Kind.BOARD_VANISHED, "board-c"));
            assertEquals(2, restarted.deliver().delivered());
            assertEquals("{\"kind\":\"FO", received.get(5).get("finding_line").asText());
            assertEquals(
                    "BOARD_VANISHED", received.get(6).get("finding").get("kind").asText());
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void anUnreachableWebhookWaitsWithItsFindings() throws Exception {
        Path state = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "webhook-down-");
        new MonitorState(state).append(finding(Finding.Kind.FORK, "board-a"));
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        FindingWebhook.Round r = new FindingWebhook(
                        URI.create("http://127.0.0.1:" + port + "/hook"), state, Duration.ofSeconds(2))
                .deliver();
        assertEquals(1, r.pending());
        assertTrue(r.failure().contains("did not answer"), r.failure());
        MonitorMetrics metrics = new MonitorMetrics();
        metrics.webhook(r.pending(), true);
        assertTrue(metrics.text().contains("electoral_log_monitor_webhook_pending 1.0"), metrics.text());
        assertTrue(metrics.text().contains("electoral_log_monitor_webhook_failures_total 1.0"), metrics.text());
        metrics.close();
    }

    /** Every kind a monitor reports is named by its own case in the alert rules' tests (monitor-rules.test.yml). */
    @Test
    void everyKindOfFindingHasAnAlertCaseAndACounterFromZero() throws Exception {
        String cases = Files.readString(Path.of("../infra/deploy/monitor-rules.test.yml"));
        try (MonitorMetrics metrics = new MonitorMetrics()) {
            for (Finding.Kind k : Finding.Kind.values()) {
                assertTrue(cases.contains("kind: " + k.name() + "}"), k + " has no case in monitor-rules.test.yml");
                assertTrue(
                        metrics.text().contains("electoral_log_monitor_findings_total{kind=\"" + k.name() + "\"} 0.0"),
                        k + " is not exported from 0");
            }
        }
    }

    private static Finding finding(Finding.Kind kind, String board) {
        return new Finding(
                kind, board, "http://api.example", "what was seen", "previous note", "current note", List.of());
    }

    private static String sha256(String text) throws Exception {
        return Hex.encode(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
