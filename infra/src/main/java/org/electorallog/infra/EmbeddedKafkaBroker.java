package org.electorallog.infra;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in KRaft mode (one process acting as broker and controller),
 * started in this JVM from Kafka's own server jars. Its log directory is formatted once; it can be
 * stopped and started again on the same directory and ports (to test broker restarts).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;

    private final Path logDir;
    private final int brokerPort;
    private final int controllerPort;
    private final Map<String, String> extraConfig;
    private final String adminPassword;
    private KafkaRaftServer server;

    private EmbeddedKafkaBroker(Path logDir, Map<String, String> extraConfig, String adminPassword) {
        this.logDir = logDir;
        this.brokerPort = FreePorts.pick();
        this.controllerPort = FreePorts.pick();
        this.extraConfig = Map.copyOf(extraConfig);
        this.adminPassword = adminPassword;
    }

    /** The super user of a secured broker. */
    public static final String ADMIN_USER = "admin";

    /**
     * Formats {@code logDir} (if new) and starts a broker that authenticates every client with
     * SASL/SCRAM-SHA-512 and authorizes every request with the StandardAuthorizer (ACLs in the
     * metadata log; nothing is allowed without an ACL). {@value #ADMIN_USER} with
     * {@code adminPassword} is the only super user (besides the broker's own controller login) and
     * creates the other users and their ACLs through the Admin API. The controller listener uses
     * SASL/PLAIN with a random password, since KRaft controllers cannot use SCRAM.
     */
    public static EmbeddedKafkaBroker startSecured(Path logDir, String adminPassword) {
        EmbeddedKafkaBroker b = new EmbeddedKafkaBroker(logDir, Map.of(), adminPassword);
        b.format();
        b.startServer();
        return b;
    }

    /** Client properties of the super user on a secured broker. */
    public Map<String, Object> adminClientSecurity() {
        if (adminPassword == null) {
            return Map.of();
        }
        return Map.of(
                "security.protocol",
                "SASL_PLAINTEXT",
                "sasl.mechanism",
                "SCRAM-SHA-512",
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + ADMIN_USER
                        + "\" password=\"" + adminPassword + "\";");
    }

    /** Formats {@code logDir} (if new) and starts a broker on free loopback ports. */
    public static EmbeddedKafkaBroker start(Path logDir) {
        return start(logDir, Map.of());
    }

    /** As {@link #start(Path)}, with extra broker settings (which win over the defaults). */
    public static EmbeddedKafkaBroker start(Path logDir, Map<String, String> extraConfig) {
        EmbeddedKafkaBroker b = new EmbeddedKafkaBroker(logDir, extraConfig, null);
        b.format();
        b.startServer();
        return b;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    public Path logDir() {
        return logDir;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    private Properties config() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        // a single node: every internal topic has one replica
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "4");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // a dead projector's open transaction is aborted within a second of its timeout, not ten, so
        // the instance that takes its partitions over reads stable offsets sooner (decision 104)
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("log.retention.ms", "-1");
        p.put("log.retention.bytes", "-1");
        if (adminPassword != null) {
            secure(p);
        }
        extraConfig.forEach(p::put);
        return p;
    }

    private final String controllerPassword = UUID.randomUUID().toString();

    private void secure(Properties p) {
        p.put("listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "SASL_PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
        p.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        p.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        p.put("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        p.put(
                "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + ADMIN_USER
                        + "\" password=\"" + adminPassword + "\";");
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put(
                "listener.name.controller.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"controller\" password=\""
                        + controllerPassword + "\" user_controller=\"" + controllerPassword + "\";");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + ADMIN_USER + ";User:controller");
        p.put("allow.everyone.if.no.acl.found", "false");
    }

    private void format() {
        try {
            Files.createDirectories(logDir);
            if (Files.exists(logDir.resolve("meta.properties"))) {
                return;
            }
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(logDir.toAbsolutePath().toString()))
                    .setMetadataLogDirectory(logDir.toAbsolutePath().toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setControllerListenerName("CONTROLLER")
                    .setScramArguments(
                            adminPassword == null
                                    ? List.of()
                                    : List.of("SCRAM-SHA-512=[name=" + ADMIN_USER + ",password=" + adminPassword + "]"))
                    .setIgnoreFormatted(true)
                    .run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Kafka log directory " + logDir, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka log directory " + logDir + ": " + e.getMessage(), e);
        }
    }

    private synchronized void startServer() {
        long t0 = System.nanoTime();
        KafkaRaftServer s = new KafkaRaftServer(new KafkaConfig(config()), Time.SYSTEM);
        s.startup();
        server = s;
        LOG.info("embedded Kafka broker up at {} in {} ms", bootstrapServers(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** Stops the broker but keeps its data, so {@link #restart()} brings the same log back. */
    public synchronized void stop() {
        if (server != null) {
            KafkaRaftServer s = server;
            server = null;
            s.shutdown();
            s.awaitShutdown();
        }
    }

    /** Starts the broker again on the same data directory and ports. */
    public synchronized void restart() {
        if (server == null) {
            startServer();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
