package org.electorallog.dev;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.electorallog.infra.KeycloakAdmin;
import org.electorallog.infra.KeycloakRealm;
import org.electorallog.infra.KeycloakServer;
import org.electorallog.infra.OidcLogin;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.Role;

/**
 * {@code electoral-log dev --oidc}'s identity provider: a real Keycloak (the distribution the build
 * unpacks into the project root's {@code target/keycloak}) with the election realm of docs/security.md, one person
 * per role ({@code voter-1}, {@code observer-1}, {@code analyst-1}, {@code admin-1}) sharing one
 * throwaway password, and a throwaway secret for the reports client. The query API accepts its
 * tokens ({@link #oidc()}).
 */
public final class DevIdentityProvider implements AutoCloseable {
    /** The realm dev imports. */
    public static final String REALM = "election";

    /** Where the portal client may send a browser back to (never followed by dev itself). */
    static final String REDIRECT = "http://127.0.0.1:8080/voter";

    private final KeycloakServer keycloak;
    private final String password;
    private final String reportsSecret;
    private final String voterId;

    private DevIdentityProvider(KeycloakServer keycloak, String password, String reportsSecret, String voterId) {
        this.keycloak = keycloak;
        this.password = password;
        this.reportsSecret = reportsSecret;
        this.voterId = voterId;
    }

    /** Starts Keycloak from the distribution under {@code home} and imports the realm. */
    public static DevIdentityProvider start(Path home, Path workDir) {
        KeycloakServer keycloak = KeycloakServer.start(home, workDir);
        try {
            String password = secret();
            String reportsSecret = secret();
            KeycloakRealm realm = KeycloakRealm.election(REALM).withReportsSecret(reportsSecret);
            for (Role role : people()) {
                realm.withUser(null, username(role), password, role.name().toLowerCase(Locale.ROOT));
            }
            KeycloakAdmin admin = new KeycloakAdmin(keycloak);
            admin.importRealm(realm);
            return new DevIdentityProvider(
                    keycloak, password, reportsSecret, admin.userId(REALM, username(Role.VOTER)));
        } catch (RuntimeException e) {
            keycloak.close();
            throw e;
        }
    }

    /** The roles that have a person in the realm. */
    static List<Role> people() {
        return List.of(Role.VOTER, Role.OBSERVER, Role.ANALYST, Role.ADMIN);
    }

    /** The username of the role's person. */
    public static String username(Role role) {
        return role.name().toLowerCase(Locale.ROOT) + "-1";
    }

    /** What the query API needs to accept the realm's tokens (default claims, default clock skew). */
    public AccessSettings.Oidc oidc() {
        return new AccessSettings.Oidc(
                keycloak.issuer(REALM), keycloak.jwksUrl(REALM), KeycloakRealm.AUDIENCE, "realm_access.roles", "sub");
    }

    /** An access token of the role's person, signed in through the portal client as a browser does. */
    public String signIn(Role role) {
        return OidcLogin.signIn(keycloak, REALM, KeycloakRealm.PORTAL_CLIENT, REDIRECT, username(role), password);
    }

    /** A fresh access token of every person. */
    public Map<Role, String> tokens() {
        Map<Role, String> tokens = new EnumMap<>(Role.class);
        for (Role role : people()) {
            tokens.put(role, signIn(role));
        }
        return tokens;
    }

    public KeycloakServer keycloak() {
        return keycloak;
    }

    /** The throwaway password of every person of the realm. */
    public String password() {
        return password;
    }

    /** The reports client's throwaway secret. */
    public String reportsSecret() {
        return reportsSecret;
    }

    /** The user ID (the tokens' {@code sub}) of {@code voter-1}. */
    public String voterId() {
        return voterId;
    }

    @Override
    public void close() {
        keycloak.close();
    }

    private static String secret() {
        byte[] b = new byte[12];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
