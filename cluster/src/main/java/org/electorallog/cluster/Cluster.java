package org.electorallog.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.config.Setting;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.EmbeddedStack;
import org.electorallog.infra.FreePorts;
import org.electorallog.producer.EventsTopic;
import org.electorallog.schemas.Topics;

/**
 * The reference topology of an election (docs/operations.md "The reference topology"), every part a
 * real process on this machine: three Kafka nodes ({@link KafkaCluster}), a PostgreSQL primary with a
 * streaming standby ({@link DatabasePair}), two projector instances of one application and two query
 * API instances behind haproxy ({@link LoadBalancer}) and a witness, each started with the
 * operator's command ({@code electoral-log projector}, {@code api}, {@code witness}) and configured
 * through its environment as a deployment is.
 *
 * <p>How the parts find PostgreSQL: the projectors (and the APIs' registrar) name both servers with
 * {@code targetServerType=primary}, so after a promotion a new connection finds the new primary; the
 * projectors reach them through {@link TcpRelay}s that a fault can cut. The APIs read from the standby
 * first ({@code targetServerType=preferSecondary}: the primary when the standby is gone), through their
 * own {@link Setting#READ_JDBC_URL}.
 */
public final class Cluster implements AutoCloseable {
    /** The events topic's partitions: two, so the two projector instances each have one. */
    public static final int PARTITIONS = 2;

    /** The projectors' application (consumer group, transactional IDs). */
    public static final String APPLICATION = "electoral-log-rehearsal";

    private final Path work;
    private final List<AutoCloseable> parts = new ArrayList<>();
    private final NoteSigner signer = NoteSigner.generate("rehearsal.electoral-log.local");
    private KafkaCluster kafka;
    private DatabasePair databases;
    private final List<TcpRelay> databasePaths = new ArrayList<>();
    private final List<JavaProcess> projectors = new ArrayList<>();
    private final List<JavaProcess> apis = new ArrayList<>();
    private LoadBalancer loadBalancer;
    private JavaProcess witness;
    private String witnesses; // ELECTORAL_LOG_WITNESSES: '<cosigner vkey> <URL>'

    /** Stops the cluster's processes when this JVM is stopped (Ctrl-C on perf rehearse) before its close. */
    private final Thread stopOnExit = new Thread(this::close, "cluster-stop-on-exit");

    private Cluster(Path work) {
        this.work = work;
    }

    /** Starts every part under {@code work} (emptied first) and returns when each is ready. */
    public static Cluster start(Path work) {
        EmbeddedStack.deleteTree(work);
        Cluster c = new Cluster(work);
        Runtime.getRuntime().addShutdownHook(c.stopOnExit);
        try {
            Files.createDirectories(work);
            c.kafka = c.add(KafkaCluster.start(work));
            EventsTopic.ensure(c.kafka.bootstrap(), Topics.EVENTS, PARTITIONS, (short) 3);
            EventsTopic.ensure(c.kafka.bootstrap(), Topics.DEAD_LETTERS, 1, (short) 3);
            c.databases = c.add(DatabasePair.start(work));
            c.witness = c.add(c.startWitness());
            for (int port : c.databases.ports()) {
                c.databasePaths.add(c.add(TcpRelay.start("projectors-to-" + port, port)));
            }
            for (int i = 1; i <= 2; i++) {
                c.projectors.add(c.add(c.startProjector(i)));
            }
            for (int i = 1; i <= 2; i++) {
                c.apis.add(c.add(c.startApi(i)));
            }
            c.witness.awaitReady(Duration.ofMinutes(2));
            for (JavaProcess p : c.projectors) {
                p.awaitReady(Duration.ofMinutes(3));
            }
            List<Integer> apiPorts = new ArrayList<>();
            for (JavaProcess a : c.apis) {
                a.awaitReady(Duration.ofMinutes(3));
                apiPorts.add(Integer.parseInt(a.name().substring(a.name().lastIndexOf(':') + 1)));
            }
            c.loadBalancer = c.add(LoadBalancer.start(work, apiPorts));
            return c;
        } catch (IOException e) {
            c.close();
            throw new UncheckedIOException("cannot start the cluster in " + work, e);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T add(T part) {
        parts.add(part);
        return part;
    }

    /** The projectors' URL: both servers through their relays, whichever is the primary. */
    String projectorJdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + databasePaths.get(0).port() + ",127.0.0.1:"
                + databasePaths.get(1).port() + "/postgres?targetServerType=primary&connectTimeout=5";
    }

    /**
     * A witness (C2SP tlog-witness, {@code electoral-log witness}) following every board of the log,
     * as an observer would run one; the projectors send it each new checkpoint and the APIs name it.
     */
    private JavaProcess startWitness() throws IOException {
        NoteSigner key = NoteSigner.generate("witness.rehearsal.local");
        Path keyFile = work.resolve("witness.key");
        Files.writeString(keyFile, key.signerKey() + "\n");
        int port = FreePorts.pick();
        witnesses = Cosigner.Key.parse(key.signerKey()).verifierKey() + " http://127.0.0.1:" + port;
        return JavaProcess.start(
                work,
                "witness",
                256,
                JavaProcess.LAUNCHER,
                List.of(
                        "witness",
                        "--key",
                        keyFile.toString(),
                        "--log",
                        "electoral-log.local/* " + signer.verifierKey(),
                        "--state",
                        work.resolve("witness-state").toString(),
                        "--init",
                        "--port",
                        Integer.toString(port),
                        // a checkpoint per batch per board: more than the default 10 a second per log
                        "--rate-per-log",
                        "100"),
                Map.of(),
                URI.create("http://127.0.0.1:" + port + "/"));
    }

    private JavaProcess startProjector(int i) {
        int metrics = FreePorts.pick();
        Map<String, String> env = projectorEnvironment();
        env.put(Setting.INSTANCE_ID.env, "projector-" + i);
        env.put(Setting.STATE_DIR.env, work.resolve("streams-projector-" + i).toString());
        env.put(Setting.CHECKPOINT_EVERY_MS.env, "0");
        // a dead instance's boards go to the other after 4 s of silence, which the brokers allow (decision 116)
        env.put(Setting.GROUP_SESSION_TIMEOUT_MS.env, "4000");
        env.put(Setting.METRICS_PORT.env, Integer.toString(metrics));
        return JavaProcess.start(
                work,
                "projector-" + i,
                768,
                JavaProcess.LAUNCHER,
                List.of("projector"),
                env,
                URI.create("http://127.0.0.1:" + metrics + "/health/ready"));
    }

    private JavaProcess startApi(int i) {
        int port = FreePorts.pick();
        List<Integer> db = databases.ports();
        Map<String, String> env = new HashMap<>();
        env.put(
                Setting.JDBC_URL.env,
                "jdbc:postgresql://127.0.0.1:" + db.get(0) + ",127.0.0.1:" + db.get(1)
                        + "/postgres?targetServerType=primary&connectTimeout=5");
        env.put(
                Setting.READ_JDBC_URL.env,
                "jdbc:postgresql://127.0.0.1:" + db.get(1) + ",127.0.0.1:" + db.get(0)
                        + "/postgres?targetServerType=preferSecondary&connectTimeout=5");
        env.put(Setting.DB_USER.env, "postgres");
        env.put(Setting.HTTP_PORT.env, Integer.toString(port));
        env.put(Setting.LOG_KEYS.env, signer.verifierKey());
        env.put(Setting.TRUSTED_PROXIES.env, "127.0.0.1");
        env.put(Setting.WITNESSES.env, witnesses);
        env.put(
                Setting.VERIFIER_MEMORY.env,
                work.resolve("verifier-memory-" + i + ".json").toString());
        // the rehearsal's voters all come from this machine: no per-address limit on what they read
        env.put(Setting.PROOF_RATE_PER_MINUTE.env, "0");
        env.put(Setting.TILE_RATE_PER_MINUTE.env, "0");
        env.put(Setting.READ_RATE_PER_MINUTE.env, "0");
        return JavaProcess.start(
                work,
                "api-" + i + ":" + port,
                384,
                JavaProcess.LAUNCHER,
                List.of("api"),
                env,
                URI.create("http://127.0.0.1:" + port + "/health/ready"));
    }

    public Path work() {
        return work;
    }

    public KafkaCluster kafka() {
        return kafka;
    }

    public DatabasePair databases() {
        return databases;
    }

    /** The relays between the projectors and the two PostgreSQL servers. */
    public List<TcpRelay> databasePaths() {
        return List.copyOf(databasePaths);
    }

    public List<JavaProcess> projectors() {
        return List.copyOf(projectors);
    }

    public List<JavaProcess> apis() {
        return List.copyOf(apis);
    }

    public JavaProcess witness() {
        return witness;
    }

    public LoadBalancer loadBalancer() {
        return loadBalancer;
    }

    /** The log's signing key (the rehearsal's own, generated at start). */
    public NoteSigner signer() {
        return signer;
    }

    /** The projectors' shared configuration (also {@code electoral-log rebuild}'s); a new map each call. */
    public Map<String, String> projectorEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put(Setting.KAFKA_BOOTSTRAP.env, kafka.bootstrap());
        env.put(Setting.JDBC_URL.env, projectorJdbcUrl());
        env.put(Setting.DB_USER.env, "postgres");
        env.put(Setting.SIGNING_KEY.env, signer.signerKey());
        env.put(Setting.APPLICATION_ID.env, APPLICATION);
        env.put(Setting.WITNESSES.env, witnesses);
        return env;
    }

    /** Stops everything it started, the last started first. */
    @Override
    public synchronized void close() {
        if (Thread.currentThread() != stopOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) this close already
            }
        }
        RuntimeException failure = null;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.remove(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("cannot stop part of the cluster: " + e.getMessage(), e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
