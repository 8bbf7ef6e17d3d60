package org.electorallog.infra;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * A Keycloak realm representation to import (the admin REST API's {@code RealmRepresentation}),
 * starting from the election realm the log expects ({@code keycloak/election-realm.json}, shown in
 * docs/security.md): the four roles, the portal client people sign in with (authorization code with
 * PKCE), the reports client back-office jobs use (client credentials, role analyst), and an audience
 * mapper on both that puts {@code electoral-log} in the access token's {@code aud}. Users, secrets
 * and further clients are added here before the import; the file itself names no person.
 */
public final class KeycloakRealm {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The audience the realm's clients put into access tokens; the query API's {@code OIDC_AUDIENCE}. */
    public static final String AUDIENCE = "electoral-log";

    /** The public client people sign in with. */
    public static final String PORTAL_CLIENT = "electoral-log-portal";

    /** The confidential client back-office jobs use (client credentials, role analyst). */
    public static final String REPORTS_CLIENT = "electoral-log-reports";

    private final ObjectNode realm;

    private KeycloakRealm(ObjectNode realm) {
        this.realm = realm;
    }

    /** The election realm of the file, under the name {@code name}. */
    public static KeycloakRealm election(String name) {
        try (InputStream in = KeycloakRealm.class.getResourceAsStream("/keycloak/election-realm.json")) {
            if (in == null) {
                throw new IllegalStateException("keycloak/election-realm.json is missing from the class path");
            }
            ObjectNode realm = (ObjectNode) JSON.readTree(in);
            realm.put("realm", name);
            return new KeycloakRealm(realm);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read keycloak/election-realm.json", e);
        }
    }

    public String name() {
        return realm.get("realm").asText();
    }

    /**
     * Adds a person with a password and one realm role (null: none). {@code id} fixes their user ID (the token's
     * {@code sub}), as a migration from another realm keeps it; null lets Keycloak make one.
     */
    public KeycloakRealm withUser(String id, String username, String password, String role) {
        ObjectNode user = users().addObject();
        if (id != null) {
            user.put("id", id);
        }
        user.put("username", username);
        user.put("enabled", true);
        // the declarative user profile asks for these at the first sign-in when they are missing
        user.put("email", username + "@election.test");
        user.put("emailVerified", true);
        user.put("firstName", username);
        user.put("lastName", "Test");
        ObjectNode credential = user.putArray("credentials").addObject();
        credential.put("type", "password");
        credential.put("value", password);
        credential.put("temporary", false);
        if (role != null) {
            user.putArray("realmRoles").add(role);
        }
        return this;
    }

    /** Sets the reports client's secret (otherwise Keycloak makes one, shown in its console). */
    public KeycloakRealm withReportsSecret(String secret) {
        client(REPORTS_CLIENT).put("secret", secret);
        return this;
    }

    /**
     * Adds a copy of client {@code template} as {@code clientId}, with {@code change} applied to it
     * (a shorter token lifespan, no audience mapper, ...); a service account user with {@code role}
     * when the copy has service accounts and {@code role} is not null.
     */
    public KeycloakRealm withClientLike(String template, String clientId, Consumer<ObjectNode> change, String role) {
        ObjectNode copy = client(template).deepCopy();
        copy.put("clientId", clientId);
        change.accept(copy);
        ((ArrayNode) realm.get("clients")).add(copy);
        if (role != null && copy.path("serviceAccountsEnabled").asBoolean()) {
            ObjectNode account = users().addObject();
            account.put("username", "service-account-" + clientId);
            account.put("enabled", true);
            account.put("serviceAccountClientId", clientId);
            account.putArray("realmRoles").add(role);
        }
        return this;
    }

    /** Sets a client's access token lifespan in seconds (for {@link #withClientLike}). */
    public static void accessTokenLifespan(ObjectNode client, int seconds) {
        ObjectNode attributes =
                client.has("attributes") ? (ObjectNode) client.get("attributes") : client.putObject("attributes");
        attributes.put("access.token.lifespan", String.valueOf(seconds));
    }

    /** Removes a client's audience mapper: its tokens are for someone else (for {@link #withClientLike}). */
    public static void withoutAudience(ObjectNode client) {
        client.remove("protocolMappers");
    }

    /** The representation to POST to {@code /admin/realms}. */
    public ObjectNode representation() {
        return realm.deepCopy();
    }

    private ObjectNode client(String clientId) {
        for (var c : realm.get("clients")) {
            if (clientId.equals(c.path("clientId").asText())) {
                return (ObjectNode) c;
            }
        }
        throw new IllegalArgumentException("the realm has no client " + clientId);
    }

    private ArrayNode users() {
        return realm.has("users") ? (ArrayNode) realm.get("users") : realm.putArray("users");
    }
}
