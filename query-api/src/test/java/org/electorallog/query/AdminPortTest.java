package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.electorallog.core.NoteVerifier;
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * With an admin port (issue 16), the admin endpoints and /metrics answer there and not on the
 * public port, which the public Service exposes; the public routes do not answer on the admin port.
 */
class AdminPortTest {
    @Test
    void adminEndpointsAndMetricsOnlyOnTheAdminPort() throws Exception {
        QueryApiTest.load();
        DatabaseAddress db = SharedStack.get().database();
        int adminPort = 0;
        QueryApi started = null;
        // a free port chosen here may be taken before the server binds it on a busy machine: choose again
        for (int attempt = 0; started == null; attempt++) {
            try (ServerSocket s = new ServerSocket(0)) {
                adminPort = s.getLocalPort();
            }
            try {
                started = QueryApi.start(new QueryApiSettings(
                        db.jdbcUrl(),
                        "electoral_log_query_api",
                        "",
                        0,
                        AdminTest.TOKEN,
                        List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())),
                        null,
                        Duration.ofHours(1),
                        null,
                        HttpSettings.defaults().withAdminPort(adminPort),
                        null,
                        null));
            } catch (RuntimeException e) {
                if (attempt >= 4 || !bindFailure(e)) {
                    throw e;
                }
            }
        }
        try (QueryApi api = started) {
            String pub = api.baseUrl();
            String admin = "http://127.0.0.1:" + adminPort;
            assertEquals(404, status(pub + "/admin/senders"));
            assertEquals(404, status(pub + "/metrics"));
            assertEquals(200, status(pub + "/boards"));
            assertEquals(200, status(pub + "/health/live"));
            assertEquals(200, status(admin + "/admin/senders"));
            assertEquals(200, status(admin + "/metrics"));
            assertEquals(200, status(admin + "/health/live"));
            assertEquals(404, status(admin + "/boards"));
            assertEquals(404, status(admin + "/boards/" + QueryApiTest.BOARD + "/checkpoint"));
            // the metrics (issue 16): request histograms with buckets, each board's size and checkpoint, the pool
            assertEquals(200, status(pub + "/boards/" + QueryApiTest.BOARD + "/checkpoint"));
            String metrics = QueryApiTest.HTTP
                    .send(
                            HttpRequest.newBuilder(URI.create(admin + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertTrue(
                    metrics.contains(
                            "electoral_log_http_requests_seconds_bucket{method=\"GET\",route=\"/boards/{board}/checkpoint\",status=\"200\",le=\"0.01\"}"),
                    metrics);
            assertTrue(
                    metrics.contains(
                            "electoral_log_board_size{board=\"" + QueryApiTest.BOARD + "\"} " + QueryApiTest.N + ".0"),
                    metrics);
            assertTrue(
                    metrics.contains(
                            "electoral_log_board_uncheckpointed_records{board=\"" + QueryApiTest.BOARD + "\"} 0.0"),
                    metrics);
            assertTrue(
                    metrics.contains("electoral_log_checkpoint_age_seconds{board=\"" + QueryApiTest.BOARD + "\"}"),
                    metrics);
            assertTrue(metrics.contains("hikaricp_connections_active"), metrics);
        }
    }

    private static boolean bindFailure(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }

    private static int status(String url) throws Exception {
        return QueryApiTest.HTTP
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + AdminTest.TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }
}
