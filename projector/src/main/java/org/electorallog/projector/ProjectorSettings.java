package org.electorallog.projector;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteSigner;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * Everything the projector needs; projector/README.md documents each setting.
 *
 * @param bootstrap        Kafka bootstrap servers
 * @param topic            the events topic
 * @param deadLetterTopic  where undecodable or invalid events go
 * @param applicationId    Kafka Streams application ID (also the consumer group)
 * @param stateDir         Kafka Streams state directory
 * @param jdbcUrl          PostgreSQL JDBC URL
 * @param dbUser           PostgreSQL user
 * @param dbPassword       PostgreSQL password
 * @param batchMaxRecords  a batch is written when it holds this many events
 * @param batchMaxWait     ... or when this much time has passed and the last batch is written (latency bound
 *                         under light traffic; decision 84)
 * @param signer           the log's checkpoint signing key
 * @param originPrefix     checkpoint origin of a board = prefix + board name
 * @param streamThreads    Kafka Streams threads in this instance
 * @param group            how this instance belongs to the consumer group: its static ID, if any, and
 *                         the session timeout ({@link GroupMembership})
 * @param signatures       which statements must carry valid signatures
 * @param checkpointEvery  how often a changed board gets a signed checkpoint; zero = after every batch
 * @param kafkaSecurity    Kafka client security properties (SASL/SCRAM, TLS) added to every client; empty = PLAINTEXT
 * @param schemaRegistryUrl a Confluent-compatible schema registry to read writer schemas from; null = the
 *                         embedded manifest
 * @param warmUpStatements statements the projector decodes, verifies and hashes in memory before it
 *                         takes its partitions (made-up ones and the topic's last events), then partly
 *                         writes in rolled-back transactions, so that its first events meet compiled
 *                         code ({@link ProjectorWarmUp}); 0 = none
 * @param keyEncryption    the key-encryption keys that wrap the committed form's data keys (docs/personal-data.md
 *                         "Keys at rest"): with them the projector makes and opens data keys; without, it
 *                         projects no statement in the committed form that has values
 */
public record ProjectorSettings(
        String bootstrap,
        String topic,
        String deadLetterTopic,
        String applicationId,
        Path stateDir,
        String jdbcUrl,
        String dbUser,
        String dbPassword,
        int batchMaxRecords,
        Duration batchMaxWait,
        NoteSigner signer,
        String originPrefix,
        int streamThreads,
        GroupMembership group,
        SignaturePolicy signatures,
        Duration checkpointEvery,
        Map<String, Object> kafkaSecurity,
        String schemaRegistryUrl,
        long warmUpStatements,
        KeyEncryptionKeys keyEncryption) {
    public ProjectorSettings {
        kafkaSecurity = Map.copyOf(kafkaSecurity);
        if (batchMaxRecords < 1) {
            throw new IllegalArgumentException("batchMaxRecords must be at least 1, got " + batchMaxRecords);
        }
        if (batchMaxWait.isNegative() || batchMaxWait.isZero()) {
            throw new IllegalArgumentException("batchMaxWait must be positive, got " + batchMaxWait);
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("streamThreads must be at least 1, got " + streamThreads);
        }
        if (checkpointEvery.isNegative()) {
            throw new IllegalArgumentException("checkpointEvery must not be negative, got " + checkpointEvery);
        }
        if (group == null) {
            throw new IllegalArgumentException("group must be given (GroupMembership.DYNAMIC for none)");
        }
        if (warmUpStatements < 0) {
            throw new IllegalArgumentException("warmUpStatements must not be negative, got " + warmUpStatements);
        }
    }

    /** The settings without their secrets (the database password, the signing key, the key-encryption keys). */
    @Override
    public String toString() {
        return "ProjectorSettings[bootstrap=" + bootstrap + ", topic=" + topic + ", deadLetterTopic=" + deadLetterTopic
                + ", applicationId=" + applicationId + ", " + login() + ", batchMaxRecords=" + batchMaxRecords
                + ", batchMaxWait=" + batchMaxWait + ", originPrefix=" + originPrefix + ", streamThreads="
                + streamThreads + ", signatures=" + signatures + ", checkpointEvery=" + checkpointEvery
                + ", schemaRegistryUrl=" + schemaRegistryUrl + ", warmUpStatements=" + warmUpStatements + "]";
    }

    /** The projection's login. */
    public DatabaseLogin login() {
        return new DatabaseLogin(jdbcUrl, dbUser, dbPassword);
    }

    /** Settings whose projector makes and opens data keys with {@code keys} (first one wrapping). */
    public ProjectorSettings withKeyEncryption(KeyEncryptionKeys keys) {
        return copy(c -> {
            c.keyEncryption = keys;
        });
    }

    /** Writer schemas from a Confluent-compatible registry at {@code url} (null: the embedded manifest). */
    public ProjectorSettings withSchemaRegistry(String url) {
        return copy(c -> {
            c.schemaRegistryUrl = url;
        });
    }

    /** The codec of the events: the embedded manifest, or the configured registry's REST API. */
    StatementCodec codec() {
        return schemaRegistryUrl == null
                ? StatementCodec.embedded()
                : new StatementCodec(
                        new ConfluentSchemaRegistryClient(schemaRegistryUrl, Duration.ofSeconds(10), 3, false),
                        Topics.EVENTS_SUBJECT);
    }

    public ProjectorSettings withSignatures(SignaturePolicy policy) {
        return copy(c -> {
            c.signatures = policy;
        });
    }

    /** Settings whose projector warms up on {@code statements} statements before it starts (0 = none; see {@link ProjectorWarmUp}). */
    public ProjectorSettings withWarmUp(long statements) {
        return copy(c -> {
            c.warmUpStatements = statements;
        });
    }

    public ProjectorSettings withCheckpointEvery(Duration every) {
        return copy(c -> {
            c.checkpointEvery = every;
        });
    }

    public ProjectorSettings withInstanceId(String id) {
        return copy(c -> {
            c.group = c.group.withInstanceId(id);
        });
    }

    /** Settings whose group waits {@code timeout} for a silent instance (at least the brokers' least session). */
    public ProjectorSettings withSessionTimeout(Duration timeout) {
        return copy(c -> {
            c.group = c.group.withSessionTimeout(timeout);
        });
    }

    public ProjectorSettings withDatabase(String url, String user, String password) {
        return copy(c -> {
            c.jdbcUrl = url;
            c.dbUser = user;
            c.dbPassword = password;
        });
    }

    /** The same settings for a replay: another consumer group and dead-letter topic (rebuild). */
    public ProjectorSettings forReplay(String appId, String deadLetters) {
        return copy(c -> {
            c.applicationId = appId;
            c.deadLetterTopic = deadLetters;
            c.group = c.group.withInstanceId(null);
        });
    }

    public ProjectorSettings withStateDir(Path dir) {
        return copy(c -> {
            c.stateDir = dir;
        });
    }

    /**
     * Settings of a projector on {@code bootstrap} and the database at {@code jdbcUrl}, signing with
     * {@code signer}, with every other value the catalogue's default ({@code Setting}); the withers
     * change the rest. What the configuration ({@link ProjectorConfig}), dev, perf and the tests
     * start from.
     */
    public static ProjectorSettings defaults(
            String bootstrap, String jdbcUrl, String dbUser, String dbPassword, Path stateDir, NoteSigner signer) {
        return new ProjectorSettings(
                bootstrap,
                Topics.EVENTS,
                Topics.DEAD_LETTERS,
                Setting.APPLICATION_ID.defaultValue,
                stateDir,
                jdbcUrl,
                dbUser,
                dbPassword,
                (int) Setting.BATCH_MAX_RECORDS.defaultNumber(),
                Duration.ofMillis(Setting.BATCH_MAX_WAIT_MS.defaultNumber()),
                signer,
                Setting.ORIGIN_PREFIX.defaultValue,
                (int) Setting.STREAM_THREADS.defaultNumber(),
                GroupMembership.DYNAMIC,
                SignaturePolicy.none(),
                Duration.ofMillis(Setting.CHECKPOINT_EVERY_MS.defaultNumber()),
                Map.of(),
                null,
                0,
                KeyEncryptionKeys.NONE);
    }

    /** The events topic and its dead-letter topic. */
    public ProjectorSettings withTopics(String events, String deadLetters) {
        return copy(c -> {
            c.topic = events;
            c.deadLetterTopic = deadLetters;
        });
    }

    /** Checkpoint origins: this prefix followed by the board's name. */
    public ProjectorSettings withOriginPrefix(String prefix) {
        return copy(c -> {
            c.originPrefix = prefix;
        });
    }

    /** Kafka Streams threads in this instance. */
    public ProjectorSettings withStreamThreads(int threads) {
        return copy(c -> {
            c.streamThreads = threads;
        });
    }

    public ProjectorSettings withKafkaSecurity(Map<String, Object> security) {
        return copy(c -> {
            c.kafkaSecurity = security;
        });
    }

    /** Properties every Kafka client of the projector starts from: the servers and the security settings. */
    public Properties kafkaClient() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.putAll(kafkaSecurity);
        return p;
    }

    public ProjectorSettings withApplicationId(String id) {
        return copy(c -> {
            c.applicationId = id;
        });
    }

    public ProjectorSettings withBatch(int maxRecords, Duration maxWait) {
        return copy(c -> {
            c.batchMaxRecords = maxRecords;
            c.batchMaxWait = maxWait;
        });
    }

    private ProjectorSettings copy(Consumer<ProjectorSettingsValues> change) {
        ProjectorSettingsValues v = new ProjectorSettingsValues(this);
        change.accept(v);
        return v.build();
    }
}
