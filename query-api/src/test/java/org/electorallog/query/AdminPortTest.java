package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteVerifier;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * With an admin port (issue 16), the admin endpoints and /metrics answer there and not on the
 * public port, which the public Service exposes; the public routes do not answer on the admin port.
 */
class AdminPortTest {
    /** An API started with an admin port, and that port. */
    record Started(QueryApi api, int adminPort) {}

    /** Starts the API with an admin port chosen here (again when another process took it first). */
    static Started withAdminPort(java.util.function.IntFunction<HttpSettings> http) throws Exception {
        QueryApiTest.load();
        DatabaseLogin db = SharedStack.get().database();
        Started started = null;
        // a free port chosen here may be taken before the server binds it on a busy machine: choose again
        for (int attempt = 0; started == null; attempt++) {
            int adminPort;
            try (ServerSocket s = new ServerSocket(0)) {
                adminPort = s.getLocalPort();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            try {
                started = new Started(
                        QueryApi.start(QueryApiSettings.publicOnly(
                                        new DatabaseLogin(db.jdbcUrl(), "electoral_log_query_api", ""), 0)
                                .withAdminToken(AdminTest.TOKEN)
                                .withLogKeys(List.of(NoteVerifier.parse(QueryApiTest.SIGNER.verifierKey())))
                                .withHttp(http.apply(adminPort))),
                        adminPort);
            } catch (RuntimeException e) {
                if (attempt >= 4 || !bindFailure(e)) {
                    throw e;
                }
            }
        }
        return started;
    }

    @Test
    void adminEndpointsAndMetricsOnlyOnTheAdminPort() throws Exception {
        Started started = withAdminPort(p -> HttpSettings.defaults().withAdminPort(p));
        int adminPort = started.adminPort();
        try (QueryApi api = started.api()) {
            String pub = api.baseUrl();
            String admin = "http://127.0.0.1:" + adminPort;
            assertEquals(404, status(pub + "/admin/senders"));
            assertEquals(404, status(pub + "/metrics"));
            assertEquals(200, status(pub + "/boards"));
            assertEquals(200, status(pub + "/health/live"));
            assertEquals(200, status(admin + "/admin/senders"));
            assertEquals(200, status(admin + "/metrics"));
            assertEquals(200, anonymous(admin + "/metrics"), "on loopback, the scraper of this host needs no token");
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

    /**
     * Issue 61: an admin port beyond loopback asks a token for /metrics too, and with a keystore it
     * speaks HTTPS like the public port, never plain HTTP.
     */
    @Test
    void beyondLoopbackMetricsNeedTheTokenAndWithAKeystoreTheAdminPortIsHttps() throws Exception {
        Path keystore = HttpProtectionTest.keystore();
        Started started = withAdminPort(p -> HttpSettings.defaults()
                .withTls(keystore, "tls-secret")
                .withAdminPort(p)
                .withAdminHost("0.0.0.0"));
        try (QueryApi api = started.api()) {
            int adminPort = started.adminPort();
            String admin = "https://127.0.0.1:" + adminPort;
            HttpClient tls = HttpProtectionTest.trusting(keystore);
            assertEquals(401, send(tls, admin + "/metrics", null), "anonymous");
            assertEquals(200, send(tls, admin + "/metrics", AdminTest.TOKEN));
            assertEquals(200, send(tls, admin + "/admin/senders", AdminTest.TOKEN));
            boolean plainRefused;
            try {
                plainRefused =
                        send(HttpClient.newHttpClient(), "http://127.0.0.1:" + adminPort + "/health/live", null) != 200;
            } catch (java.io.IOException e) {
                plainRefused = true;
            }
            assertTrue(plainRefused, "no plain HTTP on the admin port of an API with a keystore");
        }
    }

    private static int send(HttpClient client, String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static int anonymous(String url) throws Exception {
        return send(QueryApiTest.HTTP, url, null);
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
