package org.electorallog.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 9: rate limits on the public proof endpoints, request-size limits, CORS and TLS. */
class HttpProtectionTest {
    static QueryApiSettings base;

    @BeforeAll
    static void data() throws Exception {
        QueryApiTest.load();
        DatabaseLogin db = SharedStack.get().database();
        base = QueryApiSettings.publicOnly(db, 0);
    }

    static HttpResponse<String> send(QueryApi api, HttpRequest.Builder request) throws Exception {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpRequest.Builder get(QueryApi api, String path) {
        return HttpRequest.newBuilder(URI.create(api.baseUrl() + path));
    }

    @Test
    void proofRequestsBeyondTheRateGet429WithRetryAfter() throws Exception {
        try (QueryApi api = QueryApi.start(base.withHttp(HttpSettings.defaults().withProofRate(3)))) {
            String proof = "/boards/" + QueryApiTest.BOARD + "/records/1/proof";
            for (int i = 0; i < 3; i++) {
                assertEquals(200, send(api, get(api, proof)).statusCode());
            }
            HttpResponse<String> limited = send(api, get(api, "/boards/" + QueryApiTest.BOARD + "/consistency?from=1"));
            assertEquals(429, limited.statusCode(), limited.body());
            long retry =
                    Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(retry >= 1 && retry <= 20, "a token comes back within 20 s at 3 a minute: " + retry);
            assertTrue(limited.body().contains("too many requests"), limited.body());
            // the proof limit is the proofs' class alone (issue 41): other reads count against their own
            assertEquals(200, send(api, get(api, "/boards")).statusCode());
            assertEquals(
                    200,
                    send(api, get(api, "/boards/" + QueryApiTest.BOARD + "/checkpoint"))
                            .statusCode());
            assertEquals(200, send(api, get(api, "/health")).statusCode());
        }
    }

    @Test
    void oversizedBodiesAndRequestLinesAreRefusedWith4xx() throws Exception {
        try (QueryApi api = QueryApi.start(base.withHttp(HttpSettings.defaults().withMaxBodyBytes(2048)))) {
            HttpResponse<String> big = send(
                    api,
                    get(api, "/boards/" + QueryApiTest.BOARD + "/records/1/proof")
                            .POST(HttpRequest.BodyPublishers.ofString("x".repeat(3000))));
            assertEquals(413, big.statusCode(), big.body());
            assertTrue(big.body().contains("request too large"), big.body());
            HttpResponse<String> small = send(
                    api,
                    get(api, "/boards/" + QueryApiTest.BOARD + "/records/1/proof")
                            .POST(HttpRequest.BodyPublishers.ofString("not a note")));
            assertEquals(400, small.statusCode(), small.body());
            HttpResponse<String> longUrl = send(api, get(api, "/boards?x=" + "a".repeat(20_000)));
            assertTrue(longUrl.statusCode() == 414 || longUrl.statusCode() == 431, "got " + longUrl.statusCode());
        }
    }

    @Test
    void corsAnswersAllowedOriginsOnPublicEndpointsOnly() throws Exception {
        String allowed = "https://verify.example.org";
        try (QueryApi api = QueryApi.start(base.withAdminToken("cors-admin-token-0123456789")
                .withHttp(HttpSettings.defaults().withCors(List.of(allowed))))) {
            HttpResponse<String> ok = send(api, get(api, "/boards").header("Origin", allowed));
            assertEquals(
                    allowed,
                    ok.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            HttpResponse<String> other = send(api, get(api, "/boards").header("Origin", "https://evil.example"));
            assertNull(other.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            HttpResponse<String> admin = send(
                    api,
                    get(api, "/admin/boards/" + QueryApiTest.BOARD + "/counts")
                            .header("Origin", allowed)
                            .header("Authorization", "Bearer cors-admin-token-0123456789"));
            assertEquals(200, admin.statusCode());
            assertNull(
                    admin.headers().firstValue("Access-Control-Allow-Origin").orElse(null), "never on admin endpoints");
            HttpResponse<String> preflight = send(
                    api,
                    get(api, "/boards/" + QueryApiTest.BOARD + "/records/1/proof")
                            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                            .header("Origin", allowed)
                            .header("Access-Control-Request-Method", "POST"));
            assertEquals(204, preflight.statusCode(), preflight.body());
            assertTrue(preflight
                    .headers()
                    .firstValue("Access-Control-Allow-Methods")
                    .orElse("")
                    .contains("POST"));
            HttpResponse<String> refused = send(
                    api,
                    get(api, "/boards/" + QueryApiTest.BOARD + "/checkpoint")
                            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                            .header("Origin", "https://evil.example"));
            assertEquals(403, refused.statusCode());
        }
    }

    /** A PKCS12 keystore for 127.0.0.1 made by keytool, password {@code tls-secret}. */
    static Path keystore() throws Exception {
        Path dir = Files.createDirectories(Path.of("target/tls-" + System.nanoTime()));
        Path keystore = dir.resolve("api.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "api",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=127.0.0.1",
                        "-ext",
                        "SAN=ip:127.0.0.1",
                        "-validity",
                        "2",
                        "-keystore",
                        keystore.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "tls-secret",
                        "-keypass",
                        "tls-secret")
                .redirectErrorStream(true)
                .start();
        String out = new String(keytool.getInputStream().readAllBytes());
        assertEquals(0, keytool.waitFor(), out);
        return keystore;
    }

    /** A client that trusts {@code keystore}'s certificate. */
    static HttpClient trusting(Path keystore) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            trust.load(in, "tls-secret".toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(tls).build();
    }

    @Test
    void withAKeystoreTheApiServesHttpsOnly() throws Exception {
        Path keystore = keystore();
        try (QueryApi api = QueryApi.start(base.withHttp(HttpSettings.defaults().withTls(keystore, "tls-secret")))) {
            assertTrue(api.baseUrl().startsWith("https://127.0.0.1:"), api.baseUrl());
            HttpResponse<String> r = trusting(keystore)
                    .send(
                            HttpRequest.newBuilder(URI.create(api.baseUrl() + "/boards"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains(QueryApiTest.BOARD));
            boolean plainRefused;
            try {
                HttpResponse<String> plain = HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/boards"))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                plainRefused = plain.statusCode() != 200;
            } catch (IOException e) {
                plainRefused = true;
            }
            assertTrue(plainRefused, "no plain HTTP on a TLS port");
        }
    }
}
