package org.electorallog.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.infra.EmbeddedStack;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.SignaturePolicy;
import org.electorallog.query.FullTiles;
import org.electorallog.query.HttpSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.QueryApiSettings;
import org.electorallog.query.RatePolicy;
import org.electorallog.schemas.Topics;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.SealingKeys;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;

/**
 * The system under test: a persistent embedded stack (real Kafka broker and PostgreSQL 18 in
 * {@code work}, kept between commands so a fill resumes), the projector and, when asked, the query
 * API, all in this JVM. The log's signing key is kept in {@code work/signing-key}.
 */
final class PerfEnvironment implements AutoCloseable {
    /** PostgreSQL settings of the perf runs over the embedded defaults (written into every result). */
    static final Map<String, String> PG_SETTINGS =
            Map.of("shared_buffers", "2GB", "effective_cache_size", "12GB", "max_wal_size", "8GB");

    static final String ADMIN_TOKEN = "perf-admin-token-0123456789";
    /** Boards whose statements the projector requires sender signatures on (fill --signed). */
    static final String SIGNED_BOARDS = "perf-signed-(committed-)?[0-9]+";

    final Path work;
    final EmbeddedStack stack;
    final NoteSigner signer;
    final Projection db;
    /** The key-encryption key of the committed form's data keys (work/key-encryption-key, kept between commands). */
    final KeyEncryptionKeys keyEncryption;
    /** The commit the running code was built from, read when the environment opened. */
    private final String commit = Machine.commit();

    private Projector projector;
    private QueryApi api;
    /** Events a projector batch holds at most (the projector's default unless a command sets it). */
    private int batchRecords = (int) Setting.BATCH_MAX_RECORDS.defaultNumber();
    /** Full tiles the query API keeps in memory. */
    private int fullTiles = FullTiles.DEFAULT_CAPACITY;

    private PerfEnvironment(
            Path work, EmbeddedStack stack, NoteSigner signer, Projection db, KeyEncryptionKeys keyEncryption) {
        this.work = work;
        this.stack = stack;
        this.signer = signer;
        this.db = db;
        this.keyEncryption = keyEncryption;
    }

    static PerfEnvironment open(Path work) throws IOException {
        Files.createDirectories(work);
        Path keyFile = work.resolve("signing-key");
        NoteSigner signer;
        if (Files.exists(keyFile)) {
            signer = NoteSigner.parse(Files.readString(keyFile).strip());
        } else {
            signer = NoteSigner.generate("perf.electoral-log.local");
            Files.writeString(keyFile, signer.signerKey());
        }
        // both kinds of checkpoint signature, ML-DSA-44 on every checkpoint: the heaviest setting (decision 146)
        Path postQuantumFile = work.resolve("signing-key.mldsa");
        if (!Files.exists(postQuantumFile)) {
            Files.writeString(
                    postQuantumFile, Cosigner.Key.generateMlDsa44(signer.name()).signerKey());
        }
        signer = signer.withPostQuantum(Cosigner.Key.parse(Files.readString(postQuantumFile)));
        EmbeddedStack stack = EmbeddedStack.open(work, PG_SETTINGS);
        EventsTopic.ensure(stack.kafkaBootstrap(), Topics.EVENTS, 2, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), Topics.DEAD_LETTERS, 1, (short) 1);
        DatabaseLogin a = stack.database();
        Projection db = Projection.open(a, 4, "perf");
        // a stack filled by an earlier build gets this build's schema, as its projector would give it
        // (the query API reads the newest columns; it does not migrate)
        db.migrate();
        return new PerfEnvironment(
                work, stack, signer, db, KeyEncryptionKeys.loadOrCreate(work.resolve("key-encryption-key")));
    }

    /** The committed form's keys as the log's key maker makes them (the fill seals to them before the projector starts). */
    SealingKeys keyMaker() {
        return db.keyMaker(keyEncryption).sealingKeys();
    }

    /** Starts the projector with the default batch wait (100 ms). */
    Projector projector(Duration checkpointEvery) throws Exception {
        return projector(checkpointEvery, Duration.ofMillis(100));
    }

    /**
     * Starts the projector (checkpoints every {@code checkpointEvery}, a batch waits at most
     * {@code batchWait} to fill) and waits until it has caught up.
     */
    Projector projector(Duration checkpointEvery, Duration batchWait) throws Exception {
        if (projector == null) {
            projector = Projector.start(projectorSettings(checkpointEvery, batchWait));
            long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
            while (!caughtUp()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the projector did not catch up with the topic in 30 minutes");
                }
                Thread.sleep(200); // poll interval; the lag is the condition
            }
        }
        return projector;
    }

    /**
     * Sets the projector's largest batch (events) for the projector this environment starts next;
     * {@code perf fill --batch-records}.
     */
    /** Full tiles the query API keeps in memory (its default unless a command sets it before {@link #api}). */
    void fullTiles(int tiles) {
        this.fullTiles = tiles;
    }

    void batchRecords(int records) {
        if (records < 1) {
            throw new IllegalArgumentException("a batch holds at least 1 event, got " + records);
        }
        batchRecords = records;
    }

    /** The projector's settings of every perf run: batches of {@link #batchRecords(int)}, the signed boards verified. */
    ProjectorSettings projectorSettings(Duration checkpointEvery, Duration batchWait) {
        DatabaseLogin a = stack.database();
        return ProjectorSettings.defaults(stack.kafkaBootstrap(), a, work.resolve("streams"), signer)
                .withCheckpointEvery(checkpointEvery)
                .withPostQuantumEvery(Duration.ZERO)
                .withKeyEncryption(keyEncryption)
                .withBatch(batchRecords, batchWait)
                .withWarmUp(Setting.WARM_UP_STATEMENTS.defaultNumber())
                // boards of a signed fill must carry valid sender signatures: the projector verifies every one
                .withSignatures(SignaturePolicy.parse("SENDER", SIGNED_BOARDS, null, "OFF"));
    }

    /** True when PostgreSQL's stored offset of every events partition has reached Kafka's end offset. */
    boolean caughtUp() {
        Map<Integer, Long> end = endOffsets();
        Map<Integer, Long> stored;
        try {
            stored = db.nextOffsets(Topics.EVENTS);
        } catch (ProjectionException e) {
            return end.values().stream().allMatch(v -> v == 0);
        }
        return end.entrySet().stream().allMatch(e -> stored.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    Map<Integer, Long> endOffsets() {
        Properties p = new Properties();
        p.put("bootstrap.servers", stack.kafkaBootstrap());
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps =
                    List.of(new TopicPartition(Topics.EVENTS, 0), new TopicPartition(Topics.EVENTS, 1));
            Map<Integer, Long> out = new LinkedHashMap<>();
            c.endOffsets(tps).forEach((tp, off) -> out.put(tp.partition(), off));
            return out;
        }
    }

    /** The query API on a free port, with the admin endpoints and no proof rate limit (the probe measures, it does not attack). */
    QueryApi api() {
        if (api == null) {
            DatabaseLogin a = stack.database();
            api = QueryApi.start(QueryApiSettings.publicOnly(a, 0)
                    .withAdminToken(ADMIN_TOKEN)
                    .withCursorKey(new byte[32])
                    // the harness is the only client: no rate limit (issue 41's per-class limits)
                    .withHttp(HttpSettings.defaults()
                            .withLimits(RatePolicy.unlimited())
                            .withFullTiles(fullTiles)));
        }
        return api;
    }

    /** The largest of the fill's boards ({@code perf-N}). */
    String largestBoard() {
        return sizes().entrySet().stream()
                .filter(e -> e.getKey().matches("perf-[0-9]+"))
                .max(Map.Entry.comparingByValue())
                .orElseThrow(() -> new IllegalStateException("no perf-N board: run fill first"))
                .getKey();
    }

    /** Board name -> size, of the perf boards. */
    Map<String, Long> sizes() {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            db.read(LogReader::boards).stream()
                    .filter(s -> s.board().name().startsWith("perf-"))
                    .sorted(Comparator.comparing(s -> s.board().name()))
                    .forEach(s -> out.put(s.board().name(), s.size()));
        } catch (ProjectionException e) {
            // not migrated yet: no boards
        }
        return out;
    }

    /**
     * PostgreSQL's checkpoint counters so far ({@code pg_stat_checkpointer}, PostgreSQL 17 and later):
     * timed and requested checkpoints, buffers written by them and their write and sync time in
     * milliseconds; empty on a server without the view.
     */
    Map<String, Long> checkpoints() {
        try {
            return db.server().checkpointer();
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot read pg_stat_checkpointer: " + e.getMessage(), e);
        }
    }

    /**
     * PostgreSQL's WAL counters so far ({@code pg_stat_wal}, PostgreSQL 14 and later): WAL records,
     * full-page images among them, bytes, and times a backend had to write WAL because the WAL
     * buffers were full.
     */
    Map<String, Long> wal() {
        try {
            return db.server().wal();
        } catch (ProjectionException e) {
            throw new IllegalStateException("cannot read pg_stat_wal: " + e.getMessage(), e);
        }
    }

    long total() {
        return sizes().values().stream().mapToLong(Long::longValue).sum();
    }

    /** The settings a result should state. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> machine = new LinkedHashMap<>(Machine.describe());
        machine.put("commit", commit); // the build that ran, read when the run started
        m.put("machine", machine);
        Map<String, String> pg = new LinkedHashMap<>(EmbeddedPostgresServer.DEFAULT_SETTINGS);
        pg.putAll(PG_SETTINGS);
        m.put("postgresql_settings", new TreeMap<>(pg));
        m.put("huge_pages", Machine.hugePages(db.server()));
        m.put("versions", Machine.versions(db.server()));
        return m;
    }

    void stopProjector() {
        if (projector != null) {
            projector.close();
            projector = null;
        }
    }

    @Override
    public void close() {
        if (api != null) {
            api.close();
        }
        stopProjector();
        db.close();
        stack.close();
    }
}
