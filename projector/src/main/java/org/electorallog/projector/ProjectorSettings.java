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
import org.electorallog.schemas.EmbeddedSchemaRegistry;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * Everything the projector needs; projector/README.md documents each setting. Immutable: {@link
 * #defaults} gives the catalogue's values ({@code Setting}) around the four a projector cannot do
 * without, and each {@code with...} method returns a changed copy, checked again. Each value is
 * declared once, as a field below (no positional constructor, no copy of the fields).
 */
public final class ProjectorSettings implements Cloneable {
    /** Kafka bootstrap servers. */
    private String bootstrap;

    /** The events topic. */
    private String topic;

    /** Where undecodable or invalid events go. */
    private String deadLetterTopic;

    /** Kafka Streams application ID (also the consumer group). */
    private String applicationId;

    /** Kafka Streams state directory. */
    private Path stateDir;

    /** The projection: its JDBC URL, user and password. */
    private DatabaseLogin login;

    /** A batch is written when it holds this many events. */
    private int batchMaxRecords;

    /** A batch is also written when this much time has passed and the last batch is written (latency bound under light traffic; decision 84). */
    private Duration batchMaxWait;

    /** The log's checkpoint signing key. */
    private NoteSigner signer;

    /** Checkpoint origin of a board = prefix + board name. */
    private String originPrefix;

    /** Kafka Streams threads in this instance. */
    private int streamThreads;

    /** How this instance belongs to the consumer group: its static ID, if any, and the session timeout ({@link GroupMembership}). */
    private GroupMembership group;

    /** Which statements must carry valid signatures. */
    private SignaturePolicy signatures;

    /** How often a changed board gets a signed checkpoint; zero = after every batch. */
    private Duration checkpointEvery;

    /** How often a board's checkpoint also carries the log's ML-DSA-44 signature, when the signer has that key; zero = every one (decision 146). */
    private Duration postQuantumEvery;

    /** Kafka client security properties (SASL/SCRAM, TLS) added to every client; empty = PLAINTEXT. */
    private Map<String, Object> kafkaSecurity;

    /** A Confluent-compatible schema registry to read writer schemas from; null = the embedded manifest. */
    private String schemaRegistryUrl;

    private boolean writerSchemaRequired;

    /** Statements the projector decodes, verifies and hashes in memory before it takes its partitions (made-up ones and the topic's last events), then partly writes in rolled-back transactions, so that its first events meet compiled code ({@link ProjectorWarmUp}); 0 = none. */
    private long warmUpStatements;

    /** The key-encryption keys that wrap the committed form's data keys (docs/personal-data.md "Keys at rest"): with them the projector makes and opens data keys; without, it projects no statement in the committed form that has values. */
    private KeyEncryptionKeys keyEncryption;

    private ProjectorSettings() {}

    /** This, its values checked; IllegalArgumentException names the first wrong one. */
    private ProjectorSettings checked() {
        kafkaSecurity = Map.copyOf(kafkaSecurity);
        if (login == null) {
            throw new IllegalArgumentException("the projection's login must be given");
        }
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
        return this;
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

    /**
     * Whether an event must name its writer schema (ELECTORAL_LOG_WRITER_SCHEMA=REQUIRED, decision
     * 140): one without the header is dead-lettered instead of read by its ID alone.
     */
    public ProjectorSettings withWriterSchemaRequired(boolean required) {
        return copy(c -> c.writerSchemaRequired = required);
    }

    public boolean writerSchemaRequired() {
        return writerSchemaRequired;
    }

    /** The codec of the events: the embedded manifest, or the configured registry's REST API. */
    StatementCodec codec() {
        return new StatementCodec(
                schemaRegistryUrl == null
                        ? EmbeddedSchemaRegistry.instance()
                        : new ConfluentSchemaRegistryClient(schemaRegistryUrl, Duration.ofSeconds(10), 3, false),
                Topics.EVENTS_SUBJECT,
                writerSchemaRequired);
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

    /** Settings signing with {@code signer} (for example the same key with its ML-DSA-44 key beside it). */
    public ProjectorSettings withSigner(NoteSigner signer) {
        return copy(c -> {
            c.signer = signer;
        });
    }

    /** Settings whose boards' checkpoints carry the ML-DSA-44 signature at most this often (decision 146). */
    public ProjectorSettings withPostQuantumEvery(Duration every) {
        return copy(c -> {
            c.postQuantumEvery = every;
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

    /** Settings of a projector into the projection at {@code login}. */
    public ProjectorSettings withDatabase(DatabaseLogin login) {
        return copy(c -> {
            c.login = login;
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
     * Settings of a projector on {@code bootstrap} and the projection at {@code login}, signing with
     * {@code signer}, with every other value the catalogue's default ({@code Setting}); the withers
     * change the rest. What the configuration ({@link ProjectorConfig}), dev, perf and the tests
     * start from.
     */
    public static ProjectorSettings defaults(String bootstrap, DatabaseLogin login, Path stateDir, NoteSigner signer) {
        ProjectorSettings s = new ProjectorSettings();
        s.bootstrap = bootstrap;
        s.topic = Topics.EVENTS;
        s.deadLetterTopic = Topics.DEAD_LETTERS;
        s.applicationId = Setting.APPLICATION_ID.defaultValue;
        s.stateDir = stateDir;
        s.login = login;
        s.batchMaxRecords = (int) Setting.BATCH_MAX_RECORDS.defaultNumber();
        s.batchMaxWait = Duration.ofMillis(Setting.BATCH_MAX_WAIT_MS.defaultNumber());
        s.signer = signer;
        s.originPrefix = Setting.ORIGIN_PREFIX.defaultValue;
        s.streamThreads = (int) Setting.STREAM_THREADS.defaultNumber();
        s.group = GroupMembership.DYNAMIC;
        s.signatures = SignaturePolicy.none();
        s.checkpointEvery = Duration.ofMillis(Setting.CHECKPOINT_EVERY_MS.defaultNumber());
        s.postQuantumEvery = Duration.ofMillis(Setting.POST_QUANTUM_CHECKPOINT_EVERY_MS.defaultNumber());
        s.kafkaSecurity = Map.of();
        s.schemaRegistryUrl = null;
        s.warmUpStatements = 0;
        s.keyEncryption = KeyEncryptionKeys.NONE;
        return s.checked();
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

    /** A copy with {@code change} made, checked. */
    private ProjectorSettings copy(Consumer<ProjectorSettings> change) {
        ProjectorSettings c;
        try {
            c = (ProjectorSettings) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        change.accept(c);
        return c.checked();
    }

    public String bootstrap() {
        return bootstrap;
    }

    public String topic() {
        return topic;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    public String applicationId() {
        return applicationId;
    }

    public Path stateDir() {
        return stateDir;
    }

    public DatabaseLogin login() {
        return login;
    }

    public int batchMaxRecords() {
        return batchMaxRecords;
    }

    public Duration batchMaxWait() {
        return batchMaxWait;
    }

    public NoteSigner signer() {
        return signer;
    }

    public String originPrefix() {
        return originPrefix;
    }

    public int streamThreads() {
        return streamThreads;
    }

    public GroupMembership group() {
        return group;
    }

    public SignaturePolicy signatures() {
        return signatures;
    }

    public Duration checkpointEvery() {
        return checkpointEvery;
    }

    public Duration postQuantumEvery() {
        return postQuantumEvery;
    }

    public Map<String, Object> kafkaSecurity() {
        return kafkaSecurity;
    }

    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    public long warmUpStatements() {
        return warmUpStatements;
    }

    public KeyEncryptionKeys keyEncryption() {
        return keyEncryption;
    }
}
