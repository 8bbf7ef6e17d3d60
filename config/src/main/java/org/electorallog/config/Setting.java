package org.electorallog.config;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Every setting of every process, in one place: its environment variable (also the key in an
 * optional properties file), the processes that read it, its default and its meaning.
 * docs/configuration.md is this table; {@code ConfigurationTest} keeps the two equal, and the
 * deployment files may only use names listed here.
 */
public enum Setting {
    CONFIG_FILE(
            "ELECTORAL_LOG_CONFIG_FILE",
            all(),
            null,
            "a properties file with any of these settings (same names); the environment overrides it"),
    STACK(
            "ELECTORAL_LOG_STACK",
            EnumSet.of(Process.LAUNCHER),
            "auto",
            "auto, embedded, containers or external: which Kafka and PostgreSQL the launcher and tests use"),
    WORK_DIR(
            "ELECTORAL_LOG_WORK_DIR",
            EnumSet.of(Process.LAUNCHER),
            "target/stack",
            "where the embedded stack keeps its data"),
    KAFKA_BOOTSTRAP(
            "ELECTORAL_LOG_KAFKA_BOOTSTRAP",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "Kafka bootstrap servers (required by the projector; selects the external stack in the launcher)"),
    KAFKA_SECURITY_PROTOCOL(
            "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            "PLAINTEXT",
            "PLAINTEXT, SASL_PLAINTEXT, SASL_SSL or SSL"),
    KAFKA_SASL_MECHANISM(
            "ELECTORAL_LOG_KAFKA_SASL_MECHANISM",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            "SCRAM-SHA-512",
            "SCRAM-SHA-256 or SCRAM-SHA-512, with a SASL protocol"),
    KAFKA_USERNAME(
            "ELECTORAL_LOG_KAFKA_USERNAME",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "the SCRAM user, required with a SASL protocol"),
    KAFKA_PASSWORD(
            "ELECTORAL_LOG_KAFKA_PASSWORD",
            Flag.SECRET,
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "the SCRAM password (secret; or ELECTORAL_LOG_KAFKA_PASSWORD_FILE)"),
    KAFKA_PASSWORD_FILE(
            "ELECTORAL_LOG_KAFKA_PASSWORD_FILE",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "a file holding the SCRAM password"),
    KAFKA_TRUSTSTORE(
            "ELECTORAL_LOG_KAFKA_TRUSTSTORE",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "PKCS12 truststore of the brokers' CA, with SSL or SASL_SSL"),
    KAFKA_TRUSTSTORE_PASSWORD(
            "ELECTORAL_LOG_KAFKA_TRUSTSTORE_PASSWORD",
            Flag.SECRET,
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "its password (secret; or ELECTORAL_LOG_KAFKA_TRUSTSTORE_PASSWORD_FILE)"),
    KAFKA_TRUSTSTORE_PASSWORD_FILE(
            "ELECTORAL_LOG_KAFKA_TRUSTSTORE_PASSWORD_FILE",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "a file holding the truststore password"),
    JDBC_URL(
            "ELECTORAL_LOG_JDBC_URL",
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            null,
            "PostgreSQL JDBC URL (required by the projector and the query API; selects the external stack in the launcher)"),
    DB_USER(
            "ELECTORAL_LOG_DB_USER",
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            "postgres",
            "PostgreSQL user (the query API needs only the electoral_log_reader role)"),
    DB_PASSWORD(
            "ELECTORAL_LOG_DB_PASSWORD",
            Flag.SECRET,
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            "",
            "PostgreSQL password (secret; or ELECTORAL_LOG_DB_PASSWORD_FILE)"),
    DB_PASSWORD_FILE(
            "ELECTORAL_LOG_DB_PASSWORD_FILE",
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            null,
            "a file holding the PostgreSQL password"),
    REGISTRAR_DB_USER(
            "ELECTORAL_LOG_REGISTRAR_DB_USER",
            EnumSet.of(Process.QUERY_API),
            null,
            "login the admin endpoints write the sender registry with (store V9 creates electoral_log_registrar); unset = those endpoints answer 503"),
    REGISTRAR_DB_PASSWORD(
            "ELECTORAL_LOG_REGISTRAR_DB_PASSWORD",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "password of the registrar login"),
    REGISTRAR_DB_PASSWORD_FILE(
            "ELECTORAL_LOG_REGISTRAR_DB_PASSWORD_FILE",
            EnumSet.of(Process.QUERY_API),
            null,
            "file holding the registrar login's password"),
    TOPIC(
            "ELECTORAL_LOG_TOPIC",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            "electoral-log.events",
            "the events topic"),
    DEAD_LETTER_TOPIC(
            "ELECTORAL_LOG_DEAD_LETTER_TOPIC",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "electoral-log.dead-letters",
            "the dead-letter topic"),
    SCHEMA_REGISTRY_URL(
            "ELECTORAL_LOG_SCHEMA_REGISTRY_URL",
            EnumSet.of(Process.PROJECTOR, Process.PRODUCER, Process.LAUNCHER),
            null,
            "a Confluent-compatible schema registry (REST) for the events' writer schemas; unset = the embedded manifest"),
    APPLICATION_ID(
            "ELECTORAL_LOG_APPLICATION_ID",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "electoral-log-projector",
            "Kafka Streams application ID: consumer group, transactional ID and internal topic prefix"),
    INSTANCE_ID(
            "ELECTORAL_LOG_INSTANCE_ID",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            null,
            "static group membership ID, unique per instance (a pod name): a restarted instance gets its partitions back at once"),
    STATE_DIR(
            "ELECTORAL_LOG_STATE_DIR",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "target/streams-state",
            "Kafka Streams state directory"),
    SIGNING_KEY(
            "ELECTORAL_LOG_SIGNING_KEY",
            Flag.SECRET,
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            null,
            "the log's checkpoint signing key, a signed-note private key (secret, never logged; or ELECTORAL_LOG_SIGNING_KEY_FILE); required"),
    SIGNING_KEY_FILE(
            "ELECTORAL_LOG_SIGNING_KEY_FILE",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            null,
            "a file holding the signing key"),
    ORIGIN_PREFIX(
            "ELECTORAL_LOG_ORIGIN_PREFIX",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "electoral-log.local/",
            "checkpoint origin of a board = this prefix + the board name"),
    BATCH_MAX_RECORDS(
            "ELECTORAL_LOG_BATCH_MAX_RECORDS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "5000",
            "records per PostgreSQL transaction at most"),
    BATCH_MAX_WAIT_MS(
            "ELECTORAL_LOG_BATCH_MAX_WAIT_MS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "100",
            "how long a batch waits to fill"),
    STREAM_THREADS(
            "ELECTORAL_LOG_STREAM_THREADS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "1",
            "Kafka Streams threads per instance"),
    SIGNATURE_POLICY(
            "ELECTORAL_LOG_SIGNATURE_POLICY",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "NONE",
            "NONE, SENDER or SENDER_AND_SYSTEM: which statement signatures a board requires"),
    SIGNED_BOARDS(
            "ELECTORAL_LOG_SIGNED_BOARDS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            null,
            "regular expression of the boards the policy covers (default all)"),
    SYSTEM_PUBLIC_KEYS(
            "ELECTORAL_LOG_SYSTEM_PUBLIC_KEYS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            null,
            "comma-separated base64 Ed25519 keys accepted for system signatures"),
    SENDER_REGISTRY(
            "ELECTORAL_LOG_SENDER_REGISTRY",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "OFF",
            "OFF or ENFORCE: on the signed boards, a statement's sender key must be registered for its kind and board at its time (docs/security.md); needs a signature policy"),
    WITNESSES(
            "ELECTORAL_LOG_WITNESSES",
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            null,
            "witnesses that cosign checkpoints (docs/witnesses.md): comma-separated '<cosigner vkey> <URL>' pairs; the projector sends them each new checkpoint, the query API names them on the voter page, and the audits (the query API's and `electoral-log audit`) verify the cosignatures stored from them; unset = none"),
    WITNESS_QUORUM(
            "ELECTORAL_LOG_WITNESS_QUORUM",
            EnumSet.of(Process.PROJECTOR, Process.QUERY_API, Process.LAUNCHER),
            null,
            "how many of the witnesses must cosign a checkpoint for it to count as witnessed; unset = a majority of them"),
    WITNESS_TIMEOUT_MS(
            "ELECTORAL_LOG_WITNESS_TIMEOUT_MS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "5000",
            "how long the projector waits for one witness's answer before it tries again in the next round"),
    CHECKPOINT_EVERY_MS(
            "ELECTORAL_LOG_CHECKPOINT_EVERY_MS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "1000",
            "checkpoint signing interval per board; 0 = every batch"),
    WARM_UP_STATEMENTS(
            "ELECTORAL_LOG_WARM_UP_STATEMENTS",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "20000",
            "statements the projector decodes, verifies and hashes in memory before it takes its partitions (500 made-up ones and up to this many of the events topic's last events), then writes up to 20 batches of 500 of them to a scratch board in transactions it rolls back, so that its first events after a start meet compiled code (decisions 75 and 81; seconds at start, measured there); 0 = none"),
    METRICS_HOST(
            "ELECTORAL_LOG_METRICS_HOST",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "127.0.0.1",
            "address of the projector's /metrics and /health endpoints (0.0.0.0 in a container)"),
    METRICS_PORT(
            "ELECTORAL_LOG_METRICS_PORT",
            EnumSet.of(Process.PROJECTOR, Process.LAUNCHER),
            "9400",
            "port of the projector's /metrics and /health endpoints"),
    HTTP_HOST(
            "ELECTORAL_LOG_HTTP_HOST",
            EnumSet.of(Process.QUERY_API),
            "127.0.0.1",
            "address the query API listens on (0.0.0.0 in a container)"),
    HTTP_PORT("ELECTORAL_LOG_HTTP_PORT", EnumSet.of(Process.QUERY_API), "8080", "port of the query API"),
    ADMIN_PORT(
            "ELECTORAL_LOG_ADMIN_PORT",
            EnumSet.of(Process.QUERY_API),
            "0",
            "a second port (plain HTTP, for the cluster network) serving the admin endpoints and /metrics, which the public port then answers 404 for; 0 = all on the public port"),
    DB_POOL_SIZE(
            "ELECTORAL_LOG_DB_POOL_SIZE",
            EnumSet.of(Process.QUERY_API),
            "8",
            "PostgreSQL connections of each of a query API instance's two pools (listings and exports; checkpoints, proofs, tiles and the ballot locator), so up to twice this many"),
    ADMIN_TOKEN(
            "ELECTORAL_LOG_ADMIN_TOKEN",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "bearer token of the admin endpoints, at least 16 characters (secret; or ELECTORAL_LOG_ADMIN_TOKEN_FILE); unset disables them"),
    ADMIN_TOKEN_FILE(
            "ELECTORAL_LOG_ADMIN_TOKEN_FILE", EnumSet.of(Process.QUERY_API), null, "a file holding the admin token"),
    OBSERVER_TOKEN(
            "ELECTORAL_LOG_OBSERVER_TOKEN",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "static bearer token of the observer role, at least 16 characters (secret; or ELECTORAL_LOG_OBSERVER_TOKEN_FILE); docs/security.md"),
    OBSERVER_TOKEN_FILE(
            "ELECTORAL_LOG_OBSERVER_TOKEN_FILE",
            EnumSet.of(Process.QUERY_API),
            null,
            "a file holding the observer token"),
    ANALYST_TOKEN(
            "ELECTORAL_LOG_ANALYST_TOKEN",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "static bearer token of the analyst role, at least 16 characters (secret; or ELECTORAL_LOG_ANALYST_TOKEN_FILE)"),
    ANALYST_TOKEN_FILE(
            "ELECTORAL_LOG_ANALYST_TOKEN_FILE",
            EnumSet.of(Process.QUERY_API),
            null,
            "a file holding the analyst token"),
    VOTER_TOKEN(
            "ELECTORAL_LOG_VOTER_TOKEN",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "static bearer token of one voter, for development (secret; or ELECTORAL_LOG_VOTER_TOKEN_FILE); needs ELECTORAL_LOG_VOTER_TOKEN_USER"),
    VOTER_TOKEN_FILE(
            "ELECTORAL_LOG_VOTER_TOKEN_FILE", EnumSet.of(Process.QUERY_API), null, "a file holding the voter token"),
    VOTER_TOKEN_USER(
            "ELECTORAL_LOG_VOTER_TOKEN_USER",
            EnumSet.of(Process.QUERY_API),
            null,
            "the user ID the static voter token stands for"),
    OIDC_ISSUER(
            "ELECTORAL_LOG_OIDC_ISSUER",
            EnumSet.of(Process.QUERY_API),
            null,
            "OpenID Connect issuer (exact iss) whose JWT bearer tokens are accepted; unset = no OIDC"),
    OIDC_JWKS_URL(
            "ELECTORAL_LOG_OIDC_JWKS_URL",
            EnumSet.of(Process.QUERY_API),
            null,
            "the issuer's signing keys (JWKS URL), required with an issuer"),
    OIDC_AUDIENCE(
            "ELECTORAL_LOG_OIDC_AUDIENCE",
            EnumSet.of(Process.QUERY_API),
            null,
            "the aud the tokens must name, required with an issuer"),
    OIDC_ROLES_CLAIM(
            "ELECTORAL_LOG_OIDC_ROLES_CLAIM",
            EnumSet.of(Process.QUERY_API),
            "realm_access.roles",
            "the claim holding the caller's roles (voter, observer, analyst, admin), dotted for nested claims"),
    OIDC_USER_CLAIM(
            "ELECTORAL_LOG_OIDC_USER_CLAIM",
            EnumSet.of(Process.QUERY_API),
            "sub",
            "the claim holding a voter's user ID"),
    PUBLIC_KINDS(
            "ELECTORAL_LOG_PUBLIC_KINDS",
            EnumSet.of(Process.QUERY_API),
            null,
            "comma-separated statement kinds whose records anonymous callers may read (public fields only, no statement); unset = none"),
    PUBLIC_FIELDS(
            "ELECTORAL_LOG_PUBLIC_FIELDS",
            EnumSet.of(Process.QUERY_API),
            null,
            "comma-separated fields of public records anonymous callers see: user_id, username, election_id, area_id, ballot_id; unset = none"),
    TRUSTED_PROXIES(
            "ELECTORAL_LOG_TRUSTED_PROXIES",
            EnumSet.of(Process.QUERY_API),
            null,
            "comma-separated addresses or CIDR ranges (10.0.0.0/8, fd00::/8) of reverse proxies whose X-Forwarded-For names the client for rate limits; unset = none"),
    LOG_KEYS(
            "ELECTORAL_LOG_LOG_KEYS",
            EnumSet.of(Process.QUERY_API),
            null,
            "the log's verifier keys (signed-note vkeys, comma-separated), for audits of checkpoint signatures"),
    CURSOR_KEY(
            "ELECTORAL_LOG_CURSOR_KEY",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "HMAC key of page cursors, base64 of at least 16 bytes, shared by all replicas (secret; or ELECTORAL_LOG_CURSOR_KEY_FILE); unset = random per process"),
    CURSOR_KEY_FILE(
            "ELECTORAL_LOG_CURSOR_KEY_FILE", EnumSet.of(Process.QUERY_API), null, "a file holding the cursor key"),
    VERIFIER_EVERY_S(
            "ELECTORAL_LOG_VERIFIER_EVERY_S",
            EnumSet.of(Process.QUERY_API),
            "0",
            "seconds between incremental verifier passes; 0 = off"),
    VERIFIER_MEMORY(
            "ELECTORAL_LOG_VERIFIER_MEMORY",
            EnumSet.of(Process.QUERY_API),
            "verifier-memory.json",
            "file where the incremental verifier keeps the largest checkpoint it verified per board, outside the projection (keep it on a volume)"),
    FULL_AUDIT_EVERY_S(
            "ELECTORAL_LOG_FULL_AUDIT_EVERY_S",
            EnumSet.of(Process.QUERY_API),
            "3600",
            "seconds between the verifier's full audits"),
    TLS_KEYSTORE(
            "ELECTORAL_LOG_TLS_KEYSTORE",
            EnumSet.of(Process.QUERY_API),
            null,
            "PKCS12 keystore with the server certificate and key: set it and the query API serves HTTPS only"),
    TLS_KEYSTORE_PASSWORD(
            "ELECTORAL_LOG_TLS_KEYSTORE_PASSWORD",
            Flag.SECRET,
            EnumSet.of(Process.QUERY_API),
            null,
            "its password (secret; or ELECTORAL_LOG_TLS_KEYSTORE_PASSWORD_FILE)"),
    TLS_KEYSTORE_PASSWORD_FILE(
            "ELECTORAL_LOG_TLS_KEYSTORE_PASSWORD_FILE",
            EnumSet.of(Process.QUERY_API),
            null,
            "a file holding the keystore password"),
    CORS_ORIGINS(
            "ELECTORAL_LOG_CORS_ORIGINS",
            EnumSet.of(Process.QUERY_API),
            null,
            "comma-separated origins allowed to call the public endpoints from a browser (* = any); unset = none"),
    PROOF_RATE_PER_MINUTE(
            "ELECTORAL_LOG_PROOF_RATE_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "600",
            "proof requests (inclusion by ID or leaf hash, consistency, proof bundles) per client address per minute, for every role and path spelling; more get 429 with Retry-After; 0 = no limit"),
    TILE_RATE_PER_MINUTE(
            "ELECTORAL_LOG_TILE_RATE_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "6000",
            "hash tile and entry bundle requests per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    BALLOT_RATE_PER_MINUTE(
            "ELECTORAL_LOG_BALLOT_RATE_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "60",
            "ballot locator requests (each up to 1,000 bundles) per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    READ_RATE_PER_MINUTE(
            "ELECTORAL_LOG_READ_RATE_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "600",
            "other reads under /boards (board list, checkpoints, records) per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    ADMIN_READ_RATE_PER_MINUTE(
            "ELECTORAL_LOG_ADMIN_READ_RATE_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "1200",
            "requests under /admin (listings, counts, exports, audits, the sender registry) per client address per minute; more get 429 with Retry-After; 0 = no limit"),
    FAILED_AUTH_PER_MINUTE(
            "ELECTORAL_LOG_FAILED_AUTH_PER_MINUTE",
            EnumSet.of(Process.QUERY_API),
            "20",
            "refused bearer tokens per client address per minute; past them every request of that address that carries a token gets 429 with Retry-After until the minute refills; 0 = no limit"),
    EXPORT_CONCURRENCY(
            "ELECTORAL_LOG_EXPORT_CONCURRENCY",
            EnumSet.of(Process.QUERY_API),
            "2",
            "exports that may run at once, each on a connection of a pool of their own; one more gets 429 with Retry-After"),
    EXPORT_WRITE_TIMEOUT_S(
            "ELECTORAL_LOG_EXPORT_WRITE_TIMEOUT_S",
            EnumSet.of(Process.QUERY_API),
            "30",
            "seconds an export's client may accept no bytes before the export is cut off and its connection freed"),
    MAX_BODY_BYTES(
            "ELECTORAL_LOG_MAX_BODY_BYTES",
            EnumSet.of(Process.QUERY_API),
            "65536",
            "largest request body accepted; larger get 413");

    /** Marks a secret in the catalogue above. */
    private static final class Flag {
        static final boolean SECRET = true;
    }

    /** The processes that read settings. */
    public enum Process {
        PROJECTOR,
        QUERY_API,
        PRODUCER,
        LAUNCHER
    }

    public final String env;
    public final Set<Process> processes;
    public final String defaultValue;
    public final String meaning;
    private final boolean secret;

    Setting(String env, Set<Process> processes, String defaultValue, String meaning) {
        this(env, false, processes, defaultValue, meaning);
    }

    /** A setting whose value is a secret ({@code secret} true): never printed, also read from {@code <env>_FILE}. */
    Setting(String env, boolean secret, Set<Process> processes, String defaultValue, String meaning) {
        this.env = env;
        this.secret = secret;
        this.processes = processes;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    private static EnumSet<Process> all() {
        return EnumSet.allOf(Process.class);
    }

    /** True for settings whose value must never be printed (the flag each secret carries in this catalogue). */
    public boolean secret() {
        return secret;
    }

    /** The setting naming a file that holds this secret's value ({@code <env>_FILE}); every secret has one. */
    public Setting file() {
        if (!secret) {
            throw new IllegalStateException(env + " is not a secret");
        }
        return byName(env + "_FILE").orElseThrow(() -> new IllegalStateException(env + " has no " + env + "_FILE"));
    }

    public static Optional<Setting> byName(String env) {
        return Arrays.stream(values()).filter(s -> s.env.equals(env)).findFirst();
    }
}
