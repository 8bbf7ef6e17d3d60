package org.electorallog.infra;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Access tokens from a Keycloak realm's endpoints, obtained the way the log's callers obtain them:
 * {@link #signIn} as a person's browser does (OAuth 2.0 authorization code flow, RFC 6749 section
 * 4.1, with PKCE S256, RFC 7636: the realm's login form is fetched and submitted, the redirect's
 * code exchanged at the token endpoint), {@link #clientCredentials} as a back-office job does
 * (RFC 6749 section 4.4).
 */
public final class OidcLogin {
    private static final Pattern LOGIN_FORM = Pattern.compile("<form[^>]*\\bid=\"kc-form-login\"[^>]*>");
    private static final Pattern ACTION = Pattern.compile("\\baction=\"([^\"]+)\"");
    private static final Pattern PAGE_MESSAGE =
            Pattern.compile("<(?:span|div)[^>]*(?:kc-feedback-text|input-error)[^>]*>\\s*([^<]+)");

    private OidcLogin() {}

    /**
     * Signs {@code username} in to {@code realm} through {@code clientId} (a public client with
     * PKCE) as a browser does, and returns the access token; {@code redirectUri} must be one the
     * client allows (it is not followed).
     */
    public static String signIn(
            KeycloakServer keycloak,
            String realm,
            String clientId,
            String redirectUri,
            String username,
            String password) {
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        String verifier = random(32);
        String state = random(16);
        Map<String, String> cookies = new LinkedHashMap<>();
        String authorize = keycloak.authorizationEndpoint(realm) + "?"
                + form(Map.of(
                        "client_id",
                        clientId,
                        "response_type",
                        "code",
                        "scope",
                        "openid",
                        "redirect_uri",
                        redirectUri,
                        "state",
                        state,
                        "code_challenge",
                        challenge(verifier),
                        "code_challenge_method",
                        "S256"));
        HttpResponse<String> page =
                send(http, HttpRequest.newBuilder(URI.create(authorize)).GET(), cookies);
        if (page.statusCode() != 200) {
            throw new IllegalStateException(
                    "the authorization endpoint answered " + page.statusCode() + ": " + page.body());
        }
        Matcher formTag = LOGIN_FORM.matcher(page.body());
        Matcher action = formTag.find() ? ACTION.matcher(formTag.group()) : null;
        if (action == null || !action.find()) {
            throw new IllegalStateException("no login form on the authorization page: " + message(page.body()));
        }
        HttpResponse<String> submitted = send(
                http,
                HttpRequest.newBuilder(URI.create(action.group(1).replace("&amp;", "&")))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                form(Map.of("username", username, "password", password, "credentialId", "")))),
                cookies);
        String location = submitted.headers().firstValue("Location").orElse("");
        Map<String, String> answer = query(location);
        if (submitted.statusCode() != 302 || !location.startsWith(redirectUri) || !answer.containsKey("code")) {
            throw new IllegalStateException("signing " + username + " in failed (" + submitted.statusCode() + " "
                    + location + "): " + message(submitted.body()));
        }
        if (!state.equals(answer.get("state"))) {
            throw new IllegalStateException("the redirect's state is not the one sent");
        }
        return tokenRequest(
                        http,
                        keycloak.tokenEndpoint(realm),
                        Map.of(
                                "grant_type", "authorization_code",
                                "client_id", clientId,
                                "code", answer.get("code"),
                                "redirect_uri", redirectUri,
                                "code_verifier", verifier))
                .get("access_token")
                .asText();
    }

    /** An access token for a confidential client's service account (client credentials grant). */
    public static String clientCredentials(KeycloakServer keycloak, String realm, String clientId, String secret) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return tokenRequest(
                        http,
                        keycloak.tokenEndpoint(realm),
                        Map.of("grant_type", "client_credentials", "client_id", clientId, "client_secret", secret))
                .get("access_token")
                .asText();
    }

    /** POSTs a form to a token endpoint; its JSON answer, or an exception with the error it gave. */
    static JsonNode tokenRequest(HttpClient http, String endpoint, Map<String, String> params) {
        HttpResponse<String> r = send(
                http,
                HttpRequest.newBuilder(URI.create(endpoint))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form(params))),
                new LinkedHashMap<>());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(
                    "the token endpoint " + endpoint + " answered " + r.statusCode() + ": " + r.body());
        }
        try {
            return KeycloakRealm.JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("the token endpoint's answer is not JSON", e);
        }
    }

    /** Sends with the cookies collected so far and collects the ones the answer sets. */
    private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder b, Map<String, String> cookies) {
        if (!cookies.isEmpty()) {
            b.header(
                    "Cookie",
                    cookies.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining("; ")));
        }
        try {
            HttpResponse<String> r =
                    http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            List<String> set = r.headers().allValues("Set-Cookie");
            for (String c : set) {
                String pair = c.split(";", 2)[0];
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    cookies.put(
                            pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach Keycloak", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while talking to Keycloak", e);
        }
    }

    private static String message(String html) {
        Matcher m = PAGE_MESSAGE.matcher(html);
        return m.find() ? m.group(1).trim() : "(no message on the page)";
    }

    private static Map<String, String> query(String location) {
        Map<String, String> params = new LinkedHashMap<>();
        int q = location.indexOf('?');
        if (q < 0) {
            return params;
        }
        for (String pair : location.substring(q + 1).split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static String form(Map<String, String> params) {
        return params.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** The PKCE S256 code challenge of {@code verifier} (RFC 7636 section 4.2). */
    static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(
                            MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
