package org.electorallog.config;

import static org.electorallog.config.Setting.Process.LAUNCHER;
import static org.electorallog.config.Setting.Process.PRODUCER;
import static org.electorallog.config.Setting.Process.PROJECTOR;
import static org.electorallog.config.Setting.Process.QUERY_API;
import static org.electorallog.config.SettingType.LIST;
import static org.electorallog.config.SettingType.PATH;
import static org.electorallog.config.SettingType.PORT;
import static org.electorallog.config.SettingType.SECRET;
import static org.electorallog.config.SettingType.TEXT;
import static org.electorallog.config.SettingType.base64Secret;
import static org.electorallog.config.SettingType.whole;
import static org.electorallog.config.SettingType.words;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every setting of every process, in one place: its type ({@link SettingType}: what its value may be
 * and how it is read), the processes that read it, its default and its meaning. Its environment
 * variable (also the key in an optional properties file) is {@code ELECTORAL_LOG_} + its name, and
 * every secret has a twin {@code <variable>_FILE} naming a file that holds the value.
 * docs/configuration.md is this table ({@link SettingsTable}); {@code ConfigurationTest} keeps the
 * two equal, and the deployment files may only use names listed here.
 */
public enum Setting {
    CONFIG_FILE(
            PATH,
            all(),
            null,
            "a properties file with any of these settings (same names); the environment overrides it"),
    STACK(
            words("auto", "embedded", "containers", "external"),
            of(LAUNCHER),
            "auto",
            "auto, embedded, containers or external: which Kafka and PostgreSQL the launcher and tests use"),
    WORK_DIR(PATH, of(LAUNCHER), "target/stack", "where the embedded stack keeps its data"),
    KAFKA_BOOTSTRAP(
            TEXT,
            of(PROJECTOR, PRODUCER, LAUNCHER),
            null,
            "Kafka bootstrap servers (required by the projector; selects the external stack in the launcher)"),
    KAFKA_SECURITY_PROTOCOL(
            words("PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL", "SSL"),
            of(PROJECTOR, PRODUCER, LAUNCHER),
            "PLAINTEXT",
            "PLAINTEXT, SASL_PLAINTEXT, SASL_SSL or SSL"),
    KAFKA_SASL_MECHANISM(
            words("SCRAM-SHA-256", "SCRAM-SHA-512"),
            of(PROJECTOR, PRODUCER, LAUNCHER),
            "SCRAM-SHA-512",
            "SCRAM-SHA-256 or SCRAM-SHA-512, with a SASL protocol"),
    KAFKA_USERNAME(TEXT, of(PROJECTOR, PRODUCER, LAUNCHER), null, "the SCRAM user, required with a SASL protocol"),
    KAFKA_PASSWORD(SECRET, of(PROJECTOR, PRODUCER, LAUNCHER), null, "the SCRAM password (secret)"),
    KAFKA_TRUSTSTORE(
            PATH,
            of(PROJECTOR, PRODUCER, LAUNCHER),
            null,
            "PKCS12 truststore of the brokers' CA, with SSL or SASL_SSL"),
    KAFKA_TRUSTSTORE_PASSWORD(SECRET, of(PROJECTOR, PRODUCER, LAUNCHER), null, "its password (secret)"),
    JDBC_URL(
            TEXT,
            of(PROJECTOR, QUERY_API, LAUNCHER),
            null,
            "PostgreSQL JDBC URL (required by the projector and the query API; selects the external stack in the launcher)"),
    READ_JDBC_URL(
            TEXT,
            of(QUERY_API),
            null,
            "PostgreSQL JDBC URL the query API reads from, such as a streaming standby (docs/operations.md \"The reference topology\"); unset = JDBC_URL, which the registrar always writes to"),
    DB_USER(
            TEXT,
            of(PROJECTOR, QUERY_API, LAUNCHER),
            "postgres",
            "PostgreSQL user (the query API needs only the electoral_log_reader role)"),
    DB_PASSWORD(SECRET, of(PROJECTOR, QUERY_API, LAUNCHER), "", "PostgreSQL password (secret)"),
    REGISTRAR_DB_USER(
            TEXT,
            of(QUERY_API),
            null,
            "login the admin endpoints write the sender registry with (store V9 creates electoral_log_registrar); unset = those endpoints answer 503"),
    REGISTRAR_DB_PASSWORD(SECRET, of(QUERY_API), null, "password of the registrar login"),
    TOPIC(TEXT, of(PROJECTOR, PRODUCER, LAUNCHER), "electoral-log.events", "the events topic"),
    DEAD_LETTER_TOPIC(TEXT, of(PROJECTOR, LAUNCHER), "electoral-log.dead-letters", "the dead-letter topic"),
    SCHEMA_REGISTRY_URL(
            TEXT,
            of(PROJECTOR, PRODUCER, LAUNCHER),
            null,
            "a Confluent-compatible schema registry (REST) for the events' writer schemas; unset = the embedded manifest"),
    WRITER_SCHEMA(
            words("OPTIONAL", "REQUIRED"),
            of(PROJECTOR, LAUNCHER),
            "OPTIONAL",
            "whether an event must name its writer schema (Kafka header electoral-log.writer-schema, docs/producers.md): "
                    + "REQUIRED dead-letters one that does not (SCHEMA_MISMATCH) instead of trusting its schema ID alone"),
    APPLICATION_ID(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "electoral-log-projector",
            "Kafka Streams application ID: consumer group, transactional ID and internal topic prefix"),
    INSTANCE_ID(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            null,
            "static group membership ID, unique per instance (a pod name): a restarted instance gets its partitions back at once"),
    GROUP_SESSION_TIMEOUT_MS(
            whole(2000, 300_000),
            of(PROJECTOR, LAUNCHER),
            "6000",
            "how long the projectors' group waits for a silent instance before another takes its boards; at least "
                    + "the brokers' group.min.session.timeout.ms (Kafka's default: 6000)"),
    STATE_DIR(PATH, of(PROJECTOR, LAUNCHER), "target/streams-state", "Kafka Streams state directory"),
    SIGNING_KEY(
            SECRET,
            of(PROJECTOR, LAUNCHER),
            null,
            "the log's checkpoint signing key, a signed-note private key (secret, never logged); required. It also signs the log's own statements (heads entries, seals, erasures' accounts; decision 130), so seal and erase need it too"),
    POST_QUANTUM_SIGNING_KEY(
            SECRET,
            of(PROJECTOR, LAUNCHER),
            null,
            "the log's ML-DSA-44 checkpoint key (the PRIVATE+KEY+...+<base64(0x06 || seed)> file `electoral-log keygen log` writes beside the Ed25519 one, same name; secret): the checkpoints of POST_QUANTUM_CHECKPOINT_EVERY_MS then carry a second, post-quantum signature (C2SP tlog-cosignature subtree/v1; decision 146); unset = Ed25519 alone"),
    POST_QUANTUM_CHECKPOINT_EVERY_MS(
            whole(0, 86_400_000),
            of(PROJECTOR, LAUNCHER),
            "60000",
            "with a POST_QUANTUM_SIGNING_KEY: a board's checkpoint carries the ML-DSA-44 signature when this long has passed since its last one; the heads board's and every sealed checkpoint always carry it; 0 = every checkpoint (decision 146)"),
    ORIGIN_PREFIX(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "electoral-log.local/",
            "checkpoint origin of a board = this prefix + the board name"),
    BATCH_MAX_RECORDS(
            whole(1, 1_000_000), of(PROJECTOR, LAUNCHER), "5000", "records per PostgreSQL transaction at most"),
    BATCH_MAX_WAIT_MS(whole(1, 60_000), of(PROJECTOR, LAUNCHER), "100", "how long a batch waits to fill"),
    STREAM_THREADS(whole(1, 64), of(PROJECTOR, LAUNCHER), "1", "Kafka Streams threads per instance"),
    SIGNATURE_POLICY(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "NONE",
            "NONE, SENDER or SENDER_AND_SYSTEM: which statement signatures a board requires"),
    SIGNED_BOARDS(
            TEXT, of(PROJECTOR, LAUNCHER), null, "regular expression of the boards the policy covers (default all)"),
    SYSTEM_PUBLIC_KEYS(
            TEXT, of(PROJECTOR, LAUNCHER), null, "comma-separated base64 Ed25519 keys accepted for system signatures"),
    SENDER_REGISTRY(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "OFF",
            "OFF or ENFORCE: on the signed boards, a statement's sender key must be registered for its kind and board at its time (docs/security.md); needs a signature policy"),
    WITNESS_POLICY_FILE(
            PATH,
            of(PROJECTOR, QUERY_API, LAUNCHER),
            null,
            "a C2SP tlog-policy file (docs/witnesses.md): its witness lines (with their submission URLs) and its quorum, groups and nested groups included, in place of WITNESSES and WITNESS_QUORUM (set one or the other); the projector asks the witnesses with a URL and marks a checkpoint witnessed when the quorum is met, the query API publishes it with the log's keys and the voter page and the audits check against it"),
    WITNESSES(
            LIST,
            of(PROJECTOR, QUERY_API, LAUNCHER),
            null,
            "witnesses that cosign checkpoints (docs/witnesses.md): comma-separated '<cosigner vkey> <URL>' pairs, the keys listed with one URL being one witness's (Ed25519 and ML-DSA-44: all of them must cosign for it to count); the projector sends them each new checkpoint, the query API names them on the voter page, and the audits (the query API's and `electoral-log audit`) verify the cosignatures stored from them; unset = none"),
    WITNESS_QUORUM(
            TEXT,
            of(PROJECTOR, QUERY_API, LAUNCHER),
            null,
            "how many of the witnesses (URLs) must cosign a checkpoint for it to count as witnessed; unset = a majority of them"),
    WITNESS_TIMEOUT_MS(
            whole(100, 600_000),
            of(PROJECTOR, LAUNCHER),
            "5000",
            "how long the projector waits for one witness's answer before it tries again in the next round"),
    WITNESS_MODE(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "BOARDS",
            "BOARDS: every board's checkpoints go to the witnesses; HEADS: the projector enters every board's latest checkpoint on the heads board each round and only the heads board's checkpoints go to the witnesses, one request a witness a round whatever the number of boards (docs/witnesses.md)"),
    CHECKPOINT_EVERY_MS(
            whole(0, 3_600_000),
            of(PROJECTOR, LAUNCHER),
            "1000",
            "checkpoint signing interval per board; 0 = every batch"),
    KEY_ENCRYPTION_KEY_FILES(
            LIST,
            of(PROJECTOR, LAUNCHER),
            null,
            "files of the key-encryption keys that wrap the committed form's data keys, the first one wrapping (base64 of 32 bytes, mode 0600; electoral-log keys kek makes one). Never in PostgreSQL: a dump or a standby alone opens nothing (docs/personal-data.md \"Keys at rest\"). Unset: the projector makes and opens no data key, and statements in the committed form that hold values wait"),
    WARM_UP_STATEMENTS(
            whole(0, 10_000_000),
            of(PROJECTOR, LAUNCHER),
            "20000",
            "statements the projector decodes, verifies and hashes in memory before it takes its partitions (500 made-up ones and up to this many of the events topic's last events), then writes up to 20 batches of 500 of them to a scratch board in transactions it rolls back, so that its first events after a start meet compiled code (decisions 75 and 81; seconds at start, measured there); 0 = none"),
    METRICS_HOST(
            TEXT,
            of(PROJECTOR, LAUNCHER),
            "127.0.0.1",
            "address of the projector's /metrics and /health endpoints (0.0.0.0 in a container)"),
    METRICS_PORT(PORT, of(PROJECTOR, LAUNCHER), "9400", "port of the projector's /metrics and /health endpoints"),
    HTTP_HOST(TEXT, of(QUERY_API), "127.0.0.1", "address the query API listens on (0.0.0.0 in a container)"),
    HTTP_PORT(PORT, of(QUERY_API), "8080", "port of the query API"),
    ADMIN_PORT(
            PORT,
            of(QUERY_API),
            "0",
            "a second port serving the admin endpoints and /metrics, which the public port then answers 404 for (HTTPS when TLS_KEYSTORE is set, else plain HTTP); 0 = all on the public port"),
    ADMIN_HOST(
            TEXT,
            of(QUERY_API),
            "127.0.0.1",
            "address the admin port listens on; on a loopback address /metrics there needs no token (a scraper on the same host), on any other it needs the admin token like the admin endpoints"),
    DB_POOL_SIZE(
            whole(1, 200),
            of(QUERY_API),
            "8",
            "PostgreSQL connections of each of a query API instance's two pools (listings and exports; checkpoints, proofs, tiles and the ballot locator), so up to twice this many"),
    ADMIN_TOKEN(
            SECRET,
            of(QUERY_API),
            null,
            "bearer token of the admin endpoints, at least 16 characters (secret); unset disables them"),
    OBSERVER_TOKEN(
            SECRET,
            of(QUERY_API),
            null,
            "static bearer token of the observer role, at least 16 characters (secret); docs/security.md"),
    ANALYST_TOKEN(
            SECRET, of(QUERY_API), null, "static bearer token of the analyst role, at least 16 characters (secret)"),
    VOTER_TOKEN(
            SECRET,
            of(QUERY_API),
            null,
            "static bearer token of one voter, for development (secret); needs ELECTORAL_LOG_VOTER_TOKEN_USER"),
    VOTER_TOKEN_USER(TEXT, of(QUERY_API), null, "the user ID the static voter token stands for"),
    OIDC_ISSUER(
            TEXT,
            of(QUERY_API),
            null,
            "OpenID Connect issuer (exact iss) whose JWT bearer tokens are accepted; unset = no OIDC"),
    OIDC_JWKS_URL(TEXT, of(QUERY_API), null, "the issuer's signing keys (JWKS URL), required with an issuer"),
    OIDC_AUDIENCE(TEXT, of(QUERY_API), null, "the aud the tokens must name, required with an issuer"),
    OIDC_ROLES_CLAIM(
            TEXT,
            of(QUERY_API),
            "realm_access.roles",
            "the claim holding the caller's roles (voter, observer, analyst, admin), dotted for nested claims"),
    OIDC_USER_CLAIM(TEXT, of(QUERY_API), "sub", "the claim holding a voter's user ID"),
    OIDC_CLOCK_SKEW_SECONDS(
            whole(0, 300),
            of(QUERY_API),
            "30",
            "how long after its exp (and before its nbf) a token is still accepted, for clocks that differ"),
    VOTER_LANGUAGES(
            LIST,
            of(QUERY_API, LAUNCHER),
            "en,es,fr,ar",
            "the languages the voter page offers, comma-separated, the first the default when none of the browser's is offered; each needs a shipped catalogue (en, es, fr, ar: docs/voter-page.md \"Languages\"); publish-tiles --voter-page publishes the same"),
    PUBLIC_KINDS(
            LIST,
            of(QUERY_API),
            null,
            "comma-separated statement kinds whose records anonymous callers may read (public fields only, no statement); unset = none"),
    PUBLIC_FIELDS(
            LIST,
            of(QUERY_API),
            null,
            "comma-separated fields of public records anonymous callers see: user_id, username, election_id, area_id, ballot_id; unset = none"),
    TRUSTED_PROXIES(
            LIST,
            of(QUERY_API),
            null,
            "comma-separated addresses or CIDR ranges (10.0.0.0/8, fd00::/8) of reverse proxies whose X-Forwarded-For names the client for rate limits; unset = none"),
    LOG_KEYS(
            LIST,
            of(QUERY_API),
            null,
            "the log's verifier keys (signed-note vkeys, comma-separated), for audits of checkpoint signatures"),
    CURSOR_KEY(
            base64Secret(16),
            of(QUERY_API),
            null,
            "HMAC key of page cursors, base64 of at least 16 bytes, shared by all replicas (secret); unset = random per process"),
    VERIFIER_EVERY_S(whole(0, 86_400), of(QUERY_API), "0", "seconds between incremental verifier passes; 0 = off"),
    VERIFIER_MEMORY(
            PATH,
            of(QUERY_API),
            "verifier-memory.json",
            "file where the incremental verifier keeps the largest checkpoint it verified per board, outside the projection (keep it on a volume)"),
    FULL_AUDIT_EVERY_S(whole(1, 30L * 86_400), of(QUERY_API), "3600", "seconds between the verifier's full audits"),
    TLS_KEYSTORE(
            PATH,
            of(QUERY_API),
            null,
            "PKCS12 keystore with the server certificate and key: set it and the query API serves HTTPS only"),
    TLS_KEYSTORE_PASSWORD(SECRET, of(QUERY_API), null, "its password (secret)"),
    CORS_ORIGINS(
            LIST,
            of(QUERY_API),
            null,
            "comma-separated origins allowed to call the public endpoints from a browser (* = any); unset = none"),
    PROOF_RATE_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "600",
            "proof requests (inclusion by ID or leaf hash, consistency, proof bundles) per client address per minute, for every role and path spelling; more get 429 with Retry-After; 0 = no limit"),
    TILE_RATE_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "6000",
            "hash tile and entry bundle requests per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    BALLOT_RATE_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "60",
            "ballot locator requests (each up to 1,000 bundles) per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    READ_RATE_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "600",
            "other reads under /boards (board list, checkpoints, records) per client address per minute, for every role; more get 429 with Retry-After; 0 = no limit"),
    ADMIN_READ_RATE_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "1200",
            "requests under /admin (listings, counts, exports, audits, the sender registry) per client address per minute; more get 429 with Retry-After; 0 = no limit"),
    FAILED_AUTH_PER_MINUTE(
            whole(0, 1_000_000),
            of(QUERY_API),
            "20",
            "refused bearer tokens per client address per minute; past them every request of that address that carries a token gets 429 with Retry-After until the minute refills; 0 = no limit"),
    EXPORT_CONCURRENCY(
            whole(1, 64),
            of(QUERY_API),
            "2",
            "exports that may run at once, each on a connection of a pool of their own; one more gets 429 with Retry-After"),
    EXPORT_WRITE_TIMEOUT_S(
            whole(1, 3_600),
            of(QUERY_API),
            "30",
            "seconds an export's client may accept no bytes before the export is cut off and its connection freed"),
    MAX_BODY_BYTES(
            whole(1024, 16 * 1024 * 1024), of(QUERY_API), "65536", "largest request body accepted; larger get 413"),
    FULL_TILES(
            whole(0, 1_000_000),
            of(QUERY_API),
            "8192",
            "full hash tiles (8 KiB each, immutable) kept in memory and served without the database, least recently used dropped first; 0 = none");

    /** The processes that read settings. */
    public enum Process {
        PROJECTOR,
        QUERY_API,
        PRODUCER,
        LAUNCHER
    }

    /** Every variable name starts with this. */
    public static final String PREFIX = "ELECTORAL_LOG_";

    /** The environment variable, also the properties key: {@code ELECTORAL_LOG_<name>}. */
    public final String env;

    public final SettingType type;
    public final Set<Process> processes;
    public final String defaultValue;
    public final String meaning;

    /**
     * The default as a number, for the code that builds settings without an environment (tests, dev,
     * perf): the one place a default is written is this catalogue (issue 62).
     */
    public long defaultNumber() {
        if (defaultValue == null) {
            throw new IllegalStateException(env + " has no default");
        }
        return Long.parseLong(defaultValue);
    }

    Setting(SettingType type, Set<Process> processes, String defaultValue, String meaning) {
        this.env = PREFIX + name();
        this.type = type;
        this.processes = processes;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    private static EnumSet<Process> all() {
        return EnumSet.allOf(Process.class);
    }

    private static EnumSet<Process> of(Process first, Process... rest) {
        return EnumSet.of(first, rest);
    }

    /** True for settings whose value must never be printed. */
    public boolean secret() {
        return type.kind == SettingType.Kind.SECRET;
    }

    /** The variable naming a file that holds this secret's value: {@code <env>_FILE}. */
    public String fileEnv() {
        if (!secret()) {
            throw new IllegalStateException(env + " is not a secret");
        }
        return env + "_FILE";
    }

    /** The setting whose variable is {@code env}. */
    public static Optional<Setting> byName(String env) {
        return Arrays.stream(values()).filter(s -> s.env.equals(env)).findFirst();
    }

    /** The setting that {@code variable} gives a value to: its own variable or, for a secret, its {@code _FILE} twin. */
    public static Optional<Setting> ofVariable(String variable) {
        return byName(variable)
                .or(() -> variable.endsWith("_FILE")
                        ? byName(variable.substring(0, variable.length() - 5)).filter(Setting::secret)
                        : Optional.empty());
    }

    /** Every variable a process may be given: each setting's, and each secret's {@code _FILE} twin after it. */
    public static List<String> variables() {
        List<String> all = new ArrayList<>();
        for (Setting s : values()) {
            all.add(s.env);
            if (s.secret()) {
                all.add(s.fileEnv());
            }
        }
        return all;
    }
}
