package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.electorallog.producer.ElectoralLogProducer;
import org.junit.jupiter.api.Test;

/** The projector process's /metrics and /health endpoints. */
class ProjectorHttpTest {

    static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsCountWhatWasProjectedAndHealthSaysReady() throws Exception {
        ProjectorHarness h = new ProjectorHarness("metrics", 1);
        try (Projector p = Projector.start(h.settings);
                ProjectorHttp http = ProjectorHttp.start(p, "127.0.0.1", 0);
                ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic)) {
            for (int i = 0; i < 250; i++) {
                producer.publish(ProjectorHarness.statement("metrics-board", "m-" + i, 1000 + i));
            }
            producer.flush();
            h.awaitProjected(h.stack.database().jdbcUrl(), h.endOffsets(), Duration.ofMinutes(1));
            String metrics = get(http.port(), "/metrics").body();
            assertTrue(metrics.contains("electoral_log_projector_records_written_total 250.0"), metrics);
            assertTrue(metrics.contains("electoral_log_projector_lag_records 0.0"), metrics);
            assertTrue(
                    metrics.contains("electoral_log_projector_dead_letters_total{reason=\"UNDECODABLE\"} 0.0"),
                    metrics);
            // histograms with buckets (p95 from Prometheus), Kafka Streams' and the pool's metrics (issue 16)
            assertTrue(metrics.contains("electoral_log_projector_batch_seconds_bucket{le="), metrics);
            assertTrue(metrics.contains("electoral_log_projector_publish_to_projected_seconds_count 250"), metrics);
            assertTrue(metrics.contains("hikaricp_connections_active"), metrics);
            assertTrue(metrics.contains("kafka_stream_thread_"), metrics);
            assertEquals(200, get(http.port(), "/health/live").statusCode());
            HttpResponse<String> ready = get(http.port(), "/health/ready");
            assertEquals(200, ready.statusCode(), ready.body());
        }
    }

    @Test
    void livenessFailsWhenKafkaStreamsNoLongerRuns() throws Exception {
        ProjectorHarness h = new ProjectorHarness("liveness", 1);
        Projector p = Projector.start(h.settings);
        try (ProjectorHttp http = ProjectorHttp.start(p, "127.0.0.1", 0)) {
            p.awaitRunning(Duration.ofMinutes(1));
            assertEquals(200, get(http.port(), "/health/live").statusCode());
            p.close(); // Kafka Streams NOT_RUNNING: what a client shut down after an error leaves
            HttpResponse<String> dead = get(http.port(), "/health/live");
            assertEquals(503, dead.statusCode(), dead.body());
            assertTrue(dead.body().contains("NOT_RUNNING"), dead.body());
        }
    }
}
