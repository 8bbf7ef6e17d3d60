package org.electorallog.projector;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.electorallog.schemas.ConfluentSchemaRegistryClient;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.Topics;
import org.electorallog.store.KeyMaker;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projector: a Kafka Streams application (events topic -> decode/validate -> PostgreSQL, bad
 * events -> dead-letter topic, {@code exactly_once_v2}) plus its connection pool. Applies the SQL
 * migrations before it starts.
 */
public final class Projector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Projector.class);

    private final ProjectorSettings settings;
    /** The stream thread's codec, shared with the warm-up so that its readers and layouts are made before the first event. */
    private final StatementCodec codec;

    private final Projection db;
    private final ProjectorMetrics metrics = new ProjectorMetrics();
    private final KafkaStreams streams;
    private final TopicLayout layout;
    private final DeadLetterPublisher deadLetters;
    private final SignatureVerifier signatures;
    private final KafkaPositions positions;
    private final PersonalOpening opening;
    /** Makes the committed form's data keys; null without a key-encryption key. */
    private final KeyMaker keyMaker;

    private volatile Throwable stopped;
    private final CountDownLatch running = new CountDownLatch(1);
    private KafkaConsumer<byte[], byte[]> endOffsetReader;

    private Projector(ProjectorSettings settings, TopicLayout layout) {
        this.settings = settings;
        this.layout = layout;
        this.codec = settings.codec();
        this.db = Projection.open(settings.login(), settings.streamThreads() + 3, "projector"); // + the key maker's
        this.deadLetters = new DeadLetterPublisher(settings.kafkaClient(), settings.deadLetterTopic());
        this.signatures = SignatureVerifier.forThisMachine(settings.signatures(), LogStatementCheck.of(settings));
        this.positions = new KafkaPositions(settings);
        this.opening = new PersonalOpening(db.dataKeys(settings.keyEncryption()));
        try {
            db.migrate();
            this.keyMaker = settings.keyEncryption().isEmpty() ? null : db.keyMaker(settings.keyEncryption());
            layout.requireUnchanged(db, settings.topic());
            this.streams = new KafkaStreams(topology(), StreamsProperties.of(settings));
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            if (BatchFailure.of(e) == BatchFailure.STOP) {
                stopped = rootStop(e);
                LOG.error("projector stopped: {}", stopped.getMessage());
                running.countDown(); // a caller waiting for RUNNING learns at once that it never will
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            LOG.error(
                    "projector thread failed; replacing it (the partition is taken again from PostgreSQL's offset)", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    }

    private static Throwable rootStop(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ProjectionStoppedException) {
                return c;
            }
        }
        return e;
    }

    /** An external registry below BACKWARD is said at start (issue 67); a registry that does not answer is not fatal here. */
    private static void warnOfRegistryCompatibility(ProjectorSettings settings) {
        if (settings.schemaRegistryUrl() == null) {
            return;
        }
        try {
            // one short try: a restarted instance's boards wait for its start (decision 104), and a warning is all
            // this reads for
            String level = new ConfluentSchemaRegistryClient(
                            settings.schemaRegistryUrl(), Duration.ofSeconds(2), 1, false)
                    .compatibility(Topics.EVENTS_SUBJECT);
            String warning = ConfluentSchemaRegistryClient.compatibilityWarning(Topics.EVENTS_SUBJECT, level);
            if (warning != null) {
                LOG.warn(warning);
            }
        } catch (RuntimeException e) {
            LOG.warn("the schema registry's compatibility level could not be read: {}", e.getMessage());
        }
    }

    /**
     * Checks the topics (waiting for metadata still propagating), migrates the database, checks the
     * events topic's partition count against the projection, and starts projecting.
     */
    public static Projector start(ProjectorSettings settings) {
        long t0 = System.nanoTime();
        TopicLayout layout = TopicLayout.read(settings);
        long t1 = System.nanoTime();
        Projector p = new Projector(settings, layout);
        long t2 = System.nanoTime();
        if (settings.warmUpStatements() > 0) {
            WarmUpAtStart.run(settings, p.codec, p.db);
        }
        long t3 = System.nanoTime();
        warnOfRegistryCompatibility(settings);
        p.startKeyMaker();
        p.streams.start();
        // where a start's time goes (a restarted instance's boards wait for all of it: decision 104)
        LOG.info(
                "projector {} started on {} ({} partitions) -> {} (PostgreSQL's shared memory in huge pages: {}); "
                        + "{} ms after the JVM started: topics {} ms, database {} ms, warm-up {} ms",
                settings.applicationId(),
                settings.topic(),
                layout.partitions(),
                settings.login().jdbcUrl(),
                p.hugePages(),
                ManagementFactory.getRuntimeMXBean().getUptime(),
                (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000);
        return p;
    }

    /**
     * Starts making data keys when a key-encryption key is configured, and says at once when the
     * key store has no synchronous standby (docs/operations.md "The key store's standby"): a
     * failover to an asynchronous one can bring back a key erased just before it.
     */
    private void startKeyMaker() {
        if (keyMaker == null) {
            LOG.warn(
                    "no key-encryption key ({}): this projector makes and opens no data key, and statements in the "
                            + "committed form that hold values wait until one is configured",
                    "ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES");
            return;
        }
        try {
            String standby = db.server().synchronousStandby();
            if (standby != null) {
                LOG.warn(
                        "the key store has {}: a failover to an asynchronous standby can restore data keys erased just "
                                + "before it (docs/operations.md \"The key store's standby\")",
                        standby);
            }
        } catch (ProjectionException e) {
            LOG.warn("cannot tell whether the key store has a synchronous standby: {}", e.getMessage());
        }
        keyMaker.start();
    }

    /**
     * Decision 82: "off" means every new connection's backend faults in shared buffers 4 KB at a
     * time, which slows a newly started projector's first batches (docs/operations.md).
     */
    private String hugePages() {
        try {
            return db.server().hugePagesStatus();
        } catch (ProjectionException e) {
            return "unknown: " + e.getMessage();
        }
    }

    /**
     * Waits until Kafka Streams runs with its tasks initialized (partitions assigned, transactional
     * producers ready), so that a caller that reports "up" does not leave a stop to wait for a task
     * still starting. Throws when that takes longer than {@code timeout} or the projector stopped.
     */
    public void awaitRunning(Duration timeout) {
        try {
            if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || stopped != null) {
                throw new IllegalStateException("the projector is not running " + timeout.toSeconds()
                        + " s after its start (state " + streams.state()
                        + (stopped == null ? "" : ", stopped: " + stopped.getMessage()) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the projector to run", e);
        }
    }

    /** The events topic's partition count this projector started with. */
    public int partitions() {
        return layout.partitions();
    }

    /** Why the projector stopped for good (see {@link ProjectionStoppedException}), or null while it runs. */
    public Throwable stopped() {
        return stopped;
    }

    Topology topology() {
        Topology t = new Topology();
        t.addSource("events", Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), settings.topic());
        t.addProcessor(
                "project",
                () -> new ProjectorProcessor(new InstanceParts(
                        settings, db, codec, metrics, layout, deadLetters, signatures, positions, opening)),
                "events");
        t.addSink(
                ExactlyOnceDeadLetters.SINK,
                settings.deadLetterTopic(),
                Serdes.String().serializer(),
                Serdes.ByteArray().serializer(),
                "project");
        return t;
    }

    public ProjectorMetrics metrics() {
        return metrics;
    }

    /**
     * Lag per partition this instance has projected: the topic's end offset minus the offset stored
     * in PostgreSQL (0 = caught up).
     */
    public synchronized Map<Integer, Long> lag() {
        Map<Integer, Long> projected = metrics.projectedOffsets();
        Map<Integer, Long> out = new TreeMap<>();
        if (projected.isEmpty()) {
            return out;
        }
        if (endOffsetReader == null) {
            Properties p = settings.kafkaClient();
            endOffsetReader = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        List<TopicPartition> tps = new ArrayList<>();
        projected.keySet().forEach(part -> tps.add(new TopicPartition(settings.topic(), part)));
        endOffsetReader
                .endOffsets(tps, Duration.ofSeconds(10))
                .forEach((tp, end) -> out.put(tp.partition(), Math.max(0, end - projected.get(tp.partition()))));
        return out;
    }

    /**
     * Health: Kafka Streams is running (or rebalancing) and PostgreSQL answers. The map says which
     * part is not well, for the health endpoint.
     */
    public Map<String, Object> health() {
        Map<String, Object> h = new LinkedHashMap<>();
        KafkaStreams.State state = streams.state();
        boolean streamsOk = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
        h.put("streams", state.name());
        boolean dbOk = db.reachable(2);
        h.put("database", dbOk ? "UP" : "DOWN");
        Throwable why = stopped;
        if (why != null) {
            h.put("stopped", why.getMessage());
        }
        h.put("healthy", streamsOk && dbOk && why == null);
        return h;
    }

    /**
     * Liveness: false when restarting the process is the remedy: Kafka Streams in ERROR, shutting
     * down or not running (its client was shut down, e.g. after a stop), or running with no stream
     * thread alive. A failed stream thread alone is replaced in place (the handler above), so it
     * is not a reason.
     */
    public boolean alive() {
        KafkaStreams.State state = streams.state();
        return switch (state) {
            case ERROR, PENDING_ERROR, NOT_RUNNING, PENDING_SHUTDOWN -> false;
            case RUNNING ->
                streams.metadataForLocalThreads().stream()
                        .anyMatch(t -> !t.threadState().equals("DEAD")
                                && !t.threadState().equals("PENDING_SHUTDOWN"));
            default -> true;
        };
    }

    /**
     * Binds everything this projector measures to a registry: its own counters and histograms,
     * Kafka Streams' client metrics (consumer lag, commit and process rates, thread states) and the
     * PostgreSQL pool's (HikariCP: active, idle and pending connections, acquire time).
     */
    public void bindTo(MeterRegistry registry) {
        metrics.bindTo(registry);
        new KafkaStreamsMetrics(streams).bindTo(registry);
        db.reportTo(registry);
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public ProjectorSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        // leave the group so a replacement instance gets the partitions at once, not after the session timeout
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        synchronized (this) {
            if (endOffsetReader != null) {
                endOffsetReader.close();
            }
        }
        if (keyMaker != null) {
            keyMaker.close();
        }
        positions.close();
        deadLetters.close();
        signatures.close();
        db.close();
    }
}
