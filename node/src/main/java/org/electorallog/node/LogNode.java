package org.electorallog.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Witnessing;
import org.electorallog.query.QueryApi;
import org.electorallog.query.QueryApiSettings;
import org.electorallog.schemas.Topics;
import org.electorallog.store.Servers;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.WitnessServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log in one JVM, wired once (issue 62 item 4): its topics, a projector into its projection,
 * and, when asked, a query API over it and a local witness that cosigns its checkpoints. {@code dev},
 * the demo and the tests of the modules above the projector and the query API start a log with
 * {@link #on}; each part is the same class the operator's {@code electoral-log projector} and
 * {@code api} start from their configuration.
 *
 * <pre>
 * LogNode.on(kafka, login, signer, stateDir)
 *         .topics("events", "events.dlq", 1)
 *         .ownDatabase("monitor_x")                 // optional: a database of its own on the server
 *         .projector(s -> s.withCheckpointEvery(Duration.ZERO))
 *         .api(0, a -> a.withAdminToken(token))    // optional
 *         .localWitness(dir, false)                // optional
 *         .start();
 * </pre>
 *
 * Closing stops the API, the witness rounds, the witness (its state removed) and the projector, in
 * that order; a part that fails to start stops those started before it.
 */
public final class LogNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogNode.class);

    private final String kafkaBootstrap;
    private final ProjectorSettings settings;
    private final Projector projector;
    private final QueryApi api;
    private final WitnessServer witness;
    private final Witnessing witnessing;
    private final WitnessPolicy witnesses;
    private final Path witnessState;
    private boolean closed;

    private LogNode(Builder b, Parts p) {
        this.kafkaBootstrap = b.kafkaBootstrap;
        this.settings = p.settings;
        this.projector = p.projector;
        this.api = p.api;
        this.witness = p.witness;
        this.witnessing = p.witnessing;
        this.witnesses = p.witnesses;
        this.witnessState = b.witnessState;
    }

    /**
     * A log on the Kafka cluster at {@code kafkaBootstrap} projected into the database at {@code
     * login}, signing its checkpoints with {@code signer}; Kafka Streams keeps its state under
     * {@code stateDir}.
     */
    public static Builder on(String kafkaBootstrap, DatabaseLogin login, NoteSigner signer, Path stateDir) {
        return new Builder(kafkaBootstrap, login, signer, stateDir);
    }

    /** What the node is started with; {@link #start} starts it. */
    public static final class Builder {
        private final String kafkaBootstrap;
        private DatabaseLogin login;
        private final NoteSigner signer;
        private final Path stateDir;
        private String events = Topics.EVENTS;
        private String deadLetters = Topics.DEAD_LETTERS;
        private int partitions = 1;
        private String database;
        private UnaryOperator<ProjectorSettings> projectorChange = UnaryOperator.identity();
        private Duration awaitRunning;
        private Integer apiPort;
        private UnaryOperator<QueryApiSettings> apiChange = UnaryOperator.identity();
        private Path witnessState;
        private boolean headsMode;
        private UnaryOperator<WitnessPolicy> witnessChange = UnaryOperator.identity();

        private Builder(String kafkaBootstrap, DatabaseLogin login, NoteSigner signer, Path stateDir) {
            this.kafkaBootstrap = kafkaBootstrap;
            this.login = login;
            this.signer = signer;
            this.stateDir = stateDir;
        }

        /** The events topic and its dead-letter topic (made when missing, one replica): default the log's own. */
        public Builder topics(String eventsTopic, String deadLetterTopic, int eventPartitions) {
            this.events = eventsTopic;
            this.deadLetters = deadLetterTopic;
            this.partitions = eventPartitions;
            return this;
        }

        /** A new database {@code name} on the login's server for this log's projection. */
        public Builder ownDatabase(String name) {
            this.database = name;
            return this;
        }

        /** Changes to the projector's settings, which start as {@link ProjectorSettings#defaults} with the topics. */
        public Builder projector(UnaryOperator<ProjectorSettings> change) {
            this.projectorChange = change;
            return this;
        }

        /** Waits at most {@code timeout} for the projector to run before the rest starts. */
        public Builder awaitRunning(Duration timeout) {
            this.awaitRunning = timeout;
            return this;
        }

        /**
         * A query API on {@code port} (0: any free one), its settings {@link QueryApiSettings#publicOnly}
         * with the local witness (if any) and then {@code change}.
         */
        public Builder api(int port, UnaryOperator<QueryApiSettings> change) {
            this.apiPort = port;
            this.apiChange = change;
            return this;
        }

        /**
         * A witness in this JVM with a throwaway key, following every board of this log, its state
         * in {@code state} (made new, removed on close), and the projector's witness rounds against
         * it; {@code heads}: HEADS mode (docs/witnesses.md).
         */
        public Builder localWitness(Path state, boolean heads) {
            this.witnessState = state;
            this.headsMode = heads;
            return this;
        }

        /**
         * Changes the witness rule the projector and the API use with the local witness (which
         * stays running): another policy, such as one whose quorum is a mirror's cosignatures.
         */
        public Builder witnessPolicy(UnaryOperator<WitnessPolicy> change) {
            this.witnessChange = change;
            return this;
        }

        /** Starts the parts; a failure stops what had started and is thrown. */
        public LogNode start() {
            EventsTopic.ensure(kafkaBootstrap, events, partitions, (short) 1);
            EventsTopic.ensure(kafkaBootstrap, deadLetters, 1, (short) 1);
            if (database != null) {
                Servers.createDatabase(login, database);
                login = login.onDatabase(database);
            }
            Parts p = new Parts();
            try {
                p.settings = projectorChange.apply(ProjectorSettings.defaults(kafkaBootstrap, login, stateDir, signer)
                        .withTopics(events, deadLetters));
                p.projector = Projector.start(p.settings);
                if (awaitRunning != null) {
                    long t0 = System.nanoTime();
                    p.projector.awaitRunning(awaitRunning);
                    LOG.info("projector running after {} ms", (System.nanoTime() - t0) / 1_000_000);
                }
                p.witnesses = WitnessPolicy.NONE;
                if (witnessState != null) {
                    Cosigner.Key key = Cosigner.Key.generate("witness.electoral-log.local");
                    // a log that signs with ML-DSA-44 gets a witness that cosigns with it too (decision 146)
                    List<Cosigner.Key> keys = signer.postQuantum().isPresent()
                            ? List.of(key, Cosigner.Key.generateMlDsa44(key.name()))
                            : List.of(key);
                    p.witness = WitnessServer.start(
                            "127.0.0.1",
                            0,
                            keys,
                            FollowedLogs.parse(List.of(p.settings.originPrefix() + "* " + signer.verifierKey())),
                            witnessState,
                            true,
                            WitnessServer.Options.defaults());
                    p.witnesses = WitnessPolicy.parse(
                            keys.stream()
                                    .map(k -> k.verifierKey() + " http://127.0.0.1:" + p.witness.port())
                                    .toList(),
                            "1");
                    p.witnesses = witnessChange.apply(p.witnesses);
                    p.witnessing = headsMode
                            ? Witnessing.startHeads(
                                    p.witnesses, p.settings, Duration.ofSeconds(5), Duration.ofMillis(250))
                            : Witnessing.start(p.witnesses, p.settings, Duration.ofSeconds(5), Duration.ofMillis(250));
                }
                if (apiPort != null) {
                    p.api = QueryApi.start(apiChange.apply(
                            QueryApiSettings.publicOnly(login, apiPort).withWitnesses(p.witnesses)));
                }
                return new LogNode(this, p);
            } catch (IOException e) {
                p.close(witnessState);
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                p.close(witnessState);
                throw e;
            }
        }
    }

    /** The parts as they start. */
    private static final class Parts {
        ProjectorSettings settings;
        Projector projector;
        QueryApi api;
        WitnessServer witness;
        Witnessing witnessing;
        WitnessPolicy witnesses;

        /** Stops the parts that started, the last first; a failure to stop one does not keep the others running. */
        void close(Path witnessState) {
            List<AutoCloseable> started = new ArrayList<>();
            started.add(api);
            started.add(witnessing);
            started.add(witness);
            started.add(projector);
            RuntimeException failed = null;
            for (AutoCloseable part : started) {
                if (part == null) {
                    continue;
                }
                try {
                    part.close();
                } catch (Exception e) {
                    if (failed == null) {
                        failed = new IllegalStateException("a part of the log node did not stop: " + e, e);
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (witnessState != null) {
                deleteTree(witnessState);
            }
            if (failed != null) {
                throw failed;
            }
        }
    }

    /** The projection's login (its own database's, when it was given one). */
    public DatabaseLogin login() {
        return settings.login();
    }

    /** The projector's settings, as started. */
    public ProjectorSettings settings() {
        return settings;
    }

    public Projector projector() {
        return projector;
    }

    /** The query API; IllegalStateException when the node was started without one. */
    public QueryApi api() {
        if (api == null) {
            throw new IllegalStateException("this log node was started without a query API");
        }
        return api;
    }

    /** The local witness; IllegalStateException when the node has none. */
    public WitnessServer witness() {
        if (witness == null) {
            throw new IllegalStateException("this log node was started without a local witness");
        }
        return witness;
    }

    /** The witnesses the log asks and the API names ({@link WitnessPolicy#NONE} without a local witness). */
    public WitnessPolicy witnesses() {
        return witnesses;
    }

    /** A new producer of the log's events topic; the caller closes it. */
    public ElectoralLogProducer producer() {
        return ElectoralLogProducer.create(ElectoralLogProducer.defaults(kafkaBootstrap), settings.topic());
    }

    /** Stops the API, the witness rounds, the witness and the projector; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Parts p = new Parts();
        p.api = api;
        p.witnessing = witnessing;
        p.witness = witness;
        p.projector = projector;
        p.close(witnessState);
    }

    /** Removes a directory tree if it exists; what cannot be removed is logged, not hidden. */
    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.warn("could not remove the witness state {}: {}", dir, e.toString());
        }
    }
}
