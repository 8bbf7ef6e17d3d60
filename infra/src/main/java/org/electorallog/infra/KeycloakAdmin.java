package org.electorallog.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an operator does in Keycloak's admin console, over its admin REST API as the master realm's
 * administrator: import a realm, look a user up, rotate a realm's signing key. Every call takes a
 * fresh administrator token (they live 60 s).
 */
public final class KeycloakAdmin {
    private static final String KEY_PROVIDER = "org.keycloak.keys.KeyProvider";
    private final KeycloakServer server;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public KeycloakAdmin(KeycloakServer server) {
        this.server = server;
    }

    /** Creates the realm (users, clients and roles with it). */
    public void importRealm(KeycloakRealm realm) {
        send("POST", "/admin/realms", realm.representation().toString(), 201);
    }

    /** The user ID ({@code sub}) of {@code username} in {@code realm}. */
    public String userId(String realm, String username) {
        JsonNode users = send(
                "GET",
                "/admin/realms/" + realm + "/users?exact=true&username="
                        + URLEncoder.encode(username, StandardCharsets.UTF_8),
                null,
                200);
        if (users.size() != 1) {
            throw new IllegalStateException("realm " + realm + " has " + users.size() + " users named " + username);
        }
        return users.get(0).get("id").asText();
    }

    /** The key IDs of the realm's active RS256 signing keys. */
    public List<String> signingKeyIds(String realm) {
        List<String> kids = new ArrayList<>();
        for (JsonNode k :
                send("GET", "/admin/realms/" + realm + "/keys", null, 200).path("keys")) {
            if ("RS256".equals(k.path("algorithm").asText())
                    && "SIG".equals(k.path("use").asText())
                    && "ACTIVE".equals(k.path("status").asText())) {
                kids.add(k.get("kid").asText());
            }
        }
        return kids;
    }

    /**
     * Rotates the realm's RS256 signing key as an operator would after a compromise: adds a new
     * generated key with a higher priority (new tokens are signed with it), then deletes the old
     * key providers, so their keys leave the JWKS and tokens they signed no longer verify.
     */
    public void rotateSigningKey(String realm) {
        String realmId =
                send("GET", "/admin/realms/" + realm, null, 200).get("id").asText();
        JsonNode components = send("GET", "/admin/realms/" + realm + "/components?type=" + KEY_PROVIDER, null, 200);
        List<String> old = new ArrayList<>();
        long priority = 0;
        for (JsonNode c : components) {
            if ("rsa-generated".equals(c.path("providerId").asText())) {
                old.add(c.get("id").asText());
                priority = Math.max(
                        priority, c.path("config").path("priority").path(0).asLong());
            }
        }
        ObjectNode key = KeycloakRealm.JSON.createObjectNode();
        key.put("name", "rsa-rotated-" + System.currentTimeMillis());
        key.put("providerId", "rsa-generated");
        key.put("providerType", KEY_PROVIDER);
        key.put("parentId", realmId);
        ObjectNode config = key.putObject("config");
        config.putArray("priority").add(String.valueOf(priority + 100));
        config.putArray("algorithm").add("RS256");
        config.putArray("active").add("true");
        config.putArray("enabled").add("true");
        send("POST", "/admin/realms/" + realm + "/components", key.toString(), 201);
        for (String id : old) {
            send("DELETE", "/admin/realms/" + realm + "/components/" + id, null, 204);
        }
    }

    private String adminToken() {
        return OidcLogin.tokenRequest(
                        http,
                        server.tokenEndpoint("master"),
                        Map.of(
                                "grant_type",
                                "password",
                                "client_id",
                                "admin-cli",
                                "username",
                                KeycloakServer.ADMIN_USER,
                                "password",
                                server.adminPassword()))
                .get("access_token")
                .asText();
    }

    private JsonNode send(String method, String path, String body, int expected) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + adminToken())
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != expected) {
                throw new IllegalStateException(
                        "Keycloak " + method + " " + path + ": " + r.statusCode() + " " + r.body());
            }
            return r.body().isEmpty() ? KeycloakRealm.JSON.nullNode() : KeycloakRealm.JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Keycloak " + method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: Keycloak " + method + " " + path, e);
        }
    }
}
