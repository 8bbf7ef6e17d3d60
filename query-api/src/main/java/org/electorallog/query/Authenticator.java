package org.electorallog.query;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.javalin.http.Context;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recognises the caller of a request from its {@code Authorization: Bearer} header: no header is an
 * anonymous caller; a static token (compared in constant time) stands for its role; any other token
 * must be an OpenID Connect JWT of the configured issuer, signed by a key of its JWKS (RS256, PS256,
 * ES256; {@code alg: none} and HMAC are refused), for the configured audience, not expired, with its
 * roles in the roles claim. A bad token is a 401, never an anonymous caller.
 */
final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    private final AccessSettings access;
    private final DefaultJWTProcessor<SecurityContext> jwt;

    Authenticator(AccessSettings access) {
        this.access = access;
        this.jwt = access.oidc() == null ? null : processor(access.oidc());
    }

    private static DefaultJWTProcessor<SecurityContext> processor(AccessSettings.Oidc oidc) {
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.create(URI.create(oidc.jwksUrl()).toURL())
                    .retrying(true)
                    .build();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the OIDC JWKS URL '" + oidc.jwksUrl() + "' is not a URL", e);
        }
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(
                Set.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256), keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                Set.of(oidc.audience()),
                new JWTClaimsSet.Builder().issuer(oidc.issuer()).build(),
                Set.of("exp", "iss", "aud"),
                null);
        claims.setMaxClockSkew(oidc.clockSkewSeconds());
        p.setJWTClaimsSetVerifier(claims);
        return p;
    }

    /** The caller of {@code ctx}; 401 for credentials that do not hold. */
    Caller caller(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null) {
            return Caller.ANONYMOUS;
        }
        if (!header.startsWith("Bearer ") || header.length() == 7) {
            throw unauthorized(ctx, "the Authorization header must be 'Bearer <token>'");
        }
        String token = header.substring(7).trim();
        for (Map.Entry<Role, String> t : access.tokens().entrySet()) {
            if (MessageDigest.isEqual(
                    token.getBytes(StandardCharsets.UTF_8), t.getValue().getBytes(StandardCharsets.UTF_8))) {
                return new Caller(
                        t.getKey(), t.getKey() == Role.VOTER ? access.voterTokenUser() : null, "static token");
            }
        }
        if (jwt == null) {
            throw unauthorized(ctx, "the bearer token is not one this instance accepts");
        }
        JWTClaimsSet claims;
        try {
            claims = jwt.process(token, null);
        } catch (Exception e) {
            // the library's reason (expected issuer, audience, key ID) helps whoever forges tokens:
            // it stays in this instance's log (issue 41)
            LOG.debug("bearer token refused: {}", e.getMessage());
            throw unauthorized(
                    ctx,
                    "the bearer token does not hold (expired, not yet valid, for another issuer or audience, "
                            + "or not signed by a key of the identity provider)");
        }
        return new Caller(role(claims), stringClaim(claims, access.oidc().userClaim()), "oidc");
    }

    /** The highest role the token's roles claim names; anonymous when it names none. */
    private Role role(JWTClaimsSet claims) {
        Object value = claim(claims, access.oidc().rolesClaim());
        Role best = Role.ANONYMOUS;
        if (value instanceof Collection<?> roles) {
            for (Object r : roles) {
                for (Role role : Role.values()) {
                    if (role.claimValue().equals(r) && role.covers(best)) {
                        best = role;
                    }
                }
            }
        } else if (value instanceof String s) {
            for (String part : s.split("[ ,]+")) {
                for (Role role : Role.values()) {
                    if (role.claimValue().equals(part) && role.covers(best)) {
                        best = role;
                    }
                }
            }
        }
        return best;
    }

    private static String stringClaim(JWTClaimsSet claims, String path) {
        Object v = claim(claims, path);
        return v instanceof String s && !s.isEmpty() ? s : null;
    }

    /** A claim by a dotted path through nested objects ({@code realm_access.roles}). */
    private static Object claim(JWTClaimsSet claims, String path) {
        Object current = claims.getClaims();
        for (String part : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(part);
        }
        return current;
    }

    static ApiException unauthorized(Context ctx, String why) {
        ctx.header("WWW-Authenticate", "Bearer realm=\"electoral-log\"");
        return new ApiException(Problem.Type.UNAUTHORIZED, why);
    }
}
