package org.electorallog.query;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;

/**
 * Settings of a query API instance. Immutable: {@link #publicOnly} gives the configuration's
 * defaults around the login and the port, and each {@code with...} method returns a changed copy,
 * checked again. Each value is declared once, as a field below (no positional constructor, no copy
 * of the fields).
 */
public final class QueryApiSettings implements Cloneable {
    /** The projection (primary or read replica; the read-only role suffices). */
    private DatabaseLogin login;

    /** HTTP port, 0 for any free port. */
    private int port;

    /** Bearer token of the admin endpoints; null disables them. */
    private String adminToken;

    /** The log's verifier keys, used by audits to check checkpoint signatures. */
    private List<NoteVerifier> logKeys;

    /** How often the incremental verifier checks new records; null disables it. */
    private Duration verifierEvery;

    /** How often the verifier runs the full audit of every board. */
    private Duration fullAuditEvery;

    /** HMAC key of page cursors (at least 16 bytes), shared by every replica; null = a random key for this process (cursors then only work on the instance that issued them). */
    private byte[] cursorKey;

    /** Host, TLS, CORS, rate and size limits, pool size. */
    private HttpSettings http;

    /** Tokens by role, OIDC, what anonymous callers see, trusted proxies; null = the admin token alone ({@link AccessSettings#adminOnly}). */
    private AccessSettings access;

    /** Where the incremental verifier keeps the largest checkpoint it verified per board, outside the projection; null = in memory only (lost on restart). */
    private Path verifierMemory;

    /** A login that may write the sender registry and nothing else (store V9's electoral_log_registrar), for the admin endpoints; null = those answer 503. */
    private DatabaseLogin registrar;

    /** The witnesses and quorum the voter page checks cosignatures against (ELECTORAL_LOG_WITNESSES, docs/witnesses.md); {@link WitnessPolicy#NONE} = none. */
    private WitnessPolicy witnesses;

    /** The languages the voter page offers (ELECTORAL_LOG_VOTER_LANGUAGES), the default first. */
    private VoterLanguages voterLanguages;

    /** The settings without their secrets (the database password, the admin token, the cursor key). */
    @Override
    public String toString() {
        return "QueryApiSettings[" + login() + ", port=" + port + ", admin endpoints "
                + (adminToken == null ? "off" : "on") + ", logKeys=" + logKeys.size() + ", verifierEvery="
                + verifierEvery + ", registrar=" + registrar + ", witnesses=" + witnesses + ", voterLanguages="
                + voterLanguages + "]";
    }

    /** Settings with the admin endpoints behind {@code token} (at least 16 characters; null: none). */
    public QueryApiSettings withAdminToken(String token) {
        return copy(c -> c.adminToken = token);
    }

    /** The HMAC key of page cursors (at least 16 bytes), the same on every replica. */
    public QueryApiSettings withCursorKey(byte[] key) {
        return copy(c -> c.cursorKey = key);
    }

    /** The log's verifier keys, with which audits check checkpoint signatures. */
    public QueryApiSettings withLogKeys(List<NoteVerifier> keys) {
        return copy(c -> c.logKeys = keys);
    }

    /**
     * The incremental verifier every {@code every} (null: off) and its full audit every {@code
     * fullAudit}.
     */
    public QueryApiSettings withVerifier(Duration every, Duration fullAudit) {
        return copy(c -> {
            c.verifierEvery = every;
            c.fullAuditEvery = fullAudit;
        });
    }

    public QueryApiSettings withRegistrar(DatabaseLogin r) {
        return copy(c -> c.registrar = r);
    }

    public QueryApiSettings withAccess(AccessSettings a) {
        return copy(c -> c.access = a);
    }

    public QueryApiSettings withVerifierMemory(Path memory) {
        return copy(c -> c.verifierMemory = memory);
    }

    public QueryApiSettings withWitnesses(WitnessPolicy w) {
        return copy(c -> c.witnesses = w);
    }

    public QueryApiSettings withVoterLanguages(VoterLanguages l) {
        return copy(c -> c.voterLanguages = l);
    }

    /** The access settings in force: {@code access}, with the admin token among its tokens. */
    AccessSettings effectiveAccess() {
        AccessSettings a = access == null ? AccessSettings.none() : access;
        if (adminToken == null || a.tokens().containsKey(Role.ADMIN)) {
            return a;
        }
        Map<Role, String> tokens = new EnumMap<>(Role.class);
        tokens.putAll(a.tokens());
        tokens.put(Role.ADMIN, adminToken);
        return new AccessSettings(
                tokens, a.voterTokenUser(), a.oidc(), a.publicKinds(), a.publicFields(), a.trustedProxies());
    }

    public QueryApiSettings withHttp(HttpSettings h) {
        return copy(c -> c.http = h);
    }

    private QueryApiSettings() {}

    /** This, its values checked; IllegalArgumentException names the first wrong one. */
    private QueryApiSettings checked() {
        if (login == null) {
            throw new IllegalArgumentException("the projection's login must be given");
        }
        logKeys = List.copyOf(logKeys);
        if (witnesses == null) {
            witnesses = WitnessPolicy.NONE;
        }
        if (voterLanguages == null) {
            voterLanguages = VoterLanguages.all();
        }
        if (cursorKey == null) {
            cursorKey = new byte[32];
            new SecureRandom().nextBytes(cursorKey);
        }
        if (adminToken != null && adminToken.length() < 16) {
            throw new IllegalArgumentException("the admin token must be at least 16 characters");
        }
        return this;
    }

    /**
     * Settings of an API with no admin token, no verifier and no registrar, the configuration's
     * defaults otherwise: what the withers start from.
     */
    public static QueryApiSettings publicOnly(DatabaseLogin login, int port) {
        QueryApiSettings s = new QueryApiSettings();
        s.login = login;
        s.port = port;
        s.logKeys = List.of();
        s.fullAuditEvery = Duration.ofSeconds(Setting.FULL_AUDIT_EVERY_S.defaultNumber());
        s.http = HttpSettings.defaults();
        s.witnesses = WitnessPolicy.NONE;
        return s.checked();
    }

    /** A copy with {@code change} made, checked. */
    private QueryApiSettings copy(Consumer<QueryApiSettings> change) {
        QueryApiSettings c;
        try {
            c = (QueryApiSettings) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        change.accept(c);
        return c.checked();
    }

    public DatabaseLogin login() {
        return login;
    }

    public int port() {
        return port;
    }

    public String adminToken() {
        return adminToken;
    }

    public List<NoteVerifier> logKeys() {
        return logKeys;
    }

    public Duration verifierEvery() {
        return verifierEvery;
    }

    public Duration fullAuditEvery() {
        return fullAuditEvery;
    }

    public byte[] cursorKey() {
        return cursorKey;
    }

    public HttpSettings http() {
        return http;
    }

    public AccessSettings access() {
        return access;
    }

    public Path verifierMemory() {
        return verifierMemory;
    }

    public DatabaseLogin registrar() {
        return registrar;
    }

    public WitnessPolicy witnesses() {
        return witnesses;
    }

    public VoterLanguages voterLanguages() {
        return voterLanguages;
    }
}
