package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Liveness, readiness and Prometheus metrics of the query API. */
class MetricsTest {
    static {
        try {
            QueryApiTest.load();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void healthAndMetricsAnswer() throws Exception {
        assertEquals(200, QueryApiTest.get("/health/live").statusCode());
        var ready = QueryApiTest.get("/health/ready");
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"database\":\"UP\""), ready.body());
        assertEquals(
                200,
                QueryApiTest.get("/boards/" + QueryApiTest.BOARD + "/checkpoint")
                        .statusCode());
        assertEquals(404, QueryApiTest.get("/boards/no-such-board/checkpoint").statusCode());
        String metrics = QueryApiTest.get("/metrics", Role.ADMIN).body();
        assertTrue(
                metrics.contains(
                        "electoral_log_http_requests_seconds_count{method=\"GET\",route=\"/boards/{board}/checkpoint\",status=\"200\"}"),
                metrics);
        assertTrue(metrics.contains("status=\"404\""), "errors are counted by status");
        assertTrue(metrics.contains("jvm_memory_used_bytes"), "JVM metrics");
    }
}
