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
    private KafkaRaftServer server;

    private EmbeddedKafkaBroker(Path logDir, Map<String, String> extraConfig) {
        this.logDir = logDir;
        this.brokerPort = FreePorts.pick();
        this.controllerPort = FreePorts.pick();
        this.extraConfig = Map.copyOf(extraConfig);
    }

    /** Formats {@code logDir} (if new) and starts a broker on free loopback ports. */
    public static EmbeddedKafkaBroker start(Path logDir) {
        return start(logDir, Map.of());
    }

    /** As {@link #start(Path)}, with extra broker settings (which win over the defaults). */
    public static EmbeddedKafkaBroker start(Path logDir, Map<String, String> extraConfig) {
        EmbeddedKafkaBroker b = new EmbeddedKafkaBroker(logDir, extraConfig);
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
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("log.retention.ms", "-1");
        p.put("log.retention.bytes", "-1");
        extraConfig.forEach(p::put);
        return p;
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
