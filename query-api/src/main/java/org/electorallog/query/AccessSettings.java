package org.electorallog.query;

import java.net.URI;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.config.Setting;

/**
 * Who may call the query API and what anonymous callers see (docs/security.md, docs/configuration.md).
 *
 * @param tokens          static bearer tokens by role (development and small deployments; at least 16
 *                        characters each); a voter token needs {@code voterTokenUser}
 * @param voterTokenUser  the user ID the static voter token stands for, or null
 * @param oidc            OpenID Connect bearer tokens, or null
 * @param publicKinds     statement kinds whose records anonymous callers may read (default none)
 * @param publicFields    of those, the fields they see besides the record's ID, times, kind, delivery
 *                        ID and leaf hash (default none: no personal field)
 * @param trustedProxies  addresses or CIDR ranges of the reverse proxies whose {@code X-Forwarded-For}
 *                        is believed ({@link TrustedProxies})
 */
public record AccessSettings(
        Map<Role, String> tokens,
        String voterTokenUser,
        Oidc oidc,
        Set<String> publicKinds,
        Set<String> publicFields,
        List<String> trustedProxies) {
    /** The fields a deployment may make public. */
    static final Set<String> FIELDS = Set.of("user_id", "username", "election_id", "area_id", "ballot_id");

    public AccessSettings {
        tokens = Map.copyOf(tokens);
        publicKinds = Set.copyOf(publicKinds);
        publicFields = Set.copyOf(publicFields);
        trustedProxies = List.copyOf(trustedProxies);
        for (Map.Entry<Role, String> t : tokens.entrySet()) {
            if (t.getKey() == Role.ANONYMOUS || t.getValue().length() < 16) {
                throw new IllegalArgumentException(
                        "a static token needs a role above anonymous and at least 16 characters");
            }
        }
        if (new HashSet<>(tokens.values()).size() != tokens.size()) {
            // otherwise the caller would get whichever role the map happens to list first (issue 41)
            throw new IllegalArgumentException(
                    "two roles have the same static token; give each role a token of its own");
        }
        TrustedProxies.parse(trustedProxies); // names an entry that is no address or range
        if (tokens.containsKey(Role.VOTER) && voterTokenUser == null) {
            throw new IllegalArgumentException("the static voter token needs the user ID it stands for");
        }
        for (String f : publicFields) {
            if (!FIELDS.contains(f)) {
                throw new IllegalArgumentException("'" + f + "' is not a field that can be public; fields: " + FIELDS);
            }
        }
    }

    /** No credentials at all: every caller is anonymous, nothing personal is public. */
    public static AccessSettings none() {
        return new AccessSettings(Map.of(), null, null, Set.of(), Set.of(), List.of());
    }

    /** Only an admin token (the settings before roles existed). */
    public static AccessSettings adminOnly(String adminToken) {
        return adminToken == null
                ? none()
                : new AccessSettings(Map.of(Role.ADMIN, adminToken), null, null, Set.of(), Set.of(), List.of());
    }

    /**
     * An OpenID Connect issuer whose signed JWTs are accepted.
     *
     * @param issuer      the exact {@code iss}
     * @param jwksUrl     where its signing keys are (JWKS)
     * @param audience    the {@code aud} the tokens must name
     * @param rolesClaim  the claim holding the caller's roles, dotted for nested claims (Keycloak:
     *                    {@code realm_access.roles}); values are role names (voter, observer, ...)
     * @param userClaim   the claim holding a voter's user ID (default {@code sub})
     * @param clockSkewSeconds how long after its {@code exp} (and before its {@code nbf}) a token is
     *                    still accepted: the identity provider's clock and ours may differ
     */
    public record Oidc(
            String issuer, String jwksUrl, String audience, String rolesClaim, String userClaim, int clockSkewSeconds) {
        /** The default tolerance: the catalogue's {@code OIDC_CLOCK_SKEW_SECONDS}. */
        public static final int DEFAULT_CLOCK_SKEW_SECONDS = (int) Setting.OIDC_CLOCK_SKEW_SECONDS.defaultNumber();

        /** With the default clock skew. */
        public Oidc(String issuer, String jwksUrl, String audience, String rolesClaim, String userClaim) {
            this(issuer, jwksUrl, audience, rolesClaim, userClaim, DEFAULT_CLOCK_SKEW_SECONDS);
        }

        public Oidc {
            if (clockSkewSeconds < 0) {
                throw new IllegalArgumentException("the OIDC clock skew cannot be negative");
            }
            URI uri;
            try {
                uri = URI.create(jwksUrl);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the OIDC JWKS URL '" + jwksUrl + "' is not a URL", e);
            }
            // the keys every token is checked with: over plain HTTP anyone on the path could swap them
            if (!"https".equalsIgnoreCase(uri.getScheme())
                    && !("http".equalsIgnoreCase(uri.getScheme())
                            && uri.getHost() != null
                            && isLoopback(uri.getHost()))) {
                throw new IllegalArgumentException("the OIDC JWKS URL '" + jwksUrl
                        + "' must use https (plain http is accepted for a loopback address only)");
            }
        }

        private static boolean isLoopback(String host) {
            String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            if (h.equalsIgnoreCase("localhost")) {
                return true;
            }
            byte[] a = TrustedProxies.literal(h);
            return a != null
                    && (a.length == 4
                            ? a[0] == 127
                            : Arrays.equals(a, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
        }
    }
}
