package org.electorallog.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.electorallog.infra.FreePorts;

/**
 * Three KRaft Kafka nodes, each broker and controller in a JVM of its own ({@code kafka.Kafka}, the
 * broker's own entry point), on loopback ports: replication factor 3 and {@code min.insync.replicas=2}
 * for every topic (internal ones too), {@code LogAppendTime} for every topic, unclean leader
 * election off. A node can be killed with SIGKILL and started again on its data.
 */
public final class KafkaCluster implements AutoCloseable {
    /** Nodes in the cluster: a quorum of controllers survives one loss, and acks=all needs two of three. */
    public static final int NODES = 3;

    private final List<Node> nodes = new ArrayList<>();

    /** One node: its ID, broker and controller ports, directory and process (null before its start). */
    private static final class Node {
        private final int id;
        private final int port;
        private final int controllerPort;
        private final Path dir;
        private JavaProcess process;

        Node(int id, Path dir) {
            this.id = id;
            this.port = FreePorts.pick();
            this.controllerPort = FreePorts.pick();
            this.dir = dir;
        }
    }

    private KafkaCluster() {}

    /** Formats three log directories under {@code work} and starts the nodes; returns when all three are brokers. */
    public static KafkaCluster start(Path work) {
        KafkaCluster c = new KafkaCluster();
        String clusterId = Uuid.randomUuid().toString();
        for (int id = 1; id <= NODES; id++) {
            c.nodes.add(new Node(id, work.resolve("kafka-" + id)));
        }
        StringBuilder voters = new StringBuilder();
        for (Node n : c.nodes) {
            voters.append(voters.length() == 0 ? "" : ",")
                    .append(n.id)
                    .append("@127.0.0.1:")
                    .append(n.controllerPort);
        }
        try {
            for (Node n : c.nodes) {
                Path props = n.dir.resolve("server.properties");
                Files.createDirectories(n.dir.resolve("log"));
                try (Writer w = Files.newBufferedWriter(props, StandardCharsets.UTF_8)) {
                    properties(n, voters.toString()).store(w, "electoral-log cluster node " + n.id);
                }
                format(n, clusterId);
                n.process = JavaProcess.start(
                        work, "kafka-" + n.id, 512, "kafka.Kafka", List.of(props.toString()), Map.of(), null);
            }
            c.awaitBrokers(NODES, Duration.ofMinutes(2));
            return c;
        } catch (IOException e) {
            c.close();
            throw new UncheckedIOException("cannot prepare the Kafka nodes under " + work, e);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static Properties properties(Node n, String voters) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(n.id));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + n.port + ",CONTROLLER://127.0.0.1:" + n.controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + n.port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", n.dir.resolve("log").toAbsolutePath().toString());
        p.put("default.replication.factor", "3");
        p.put("min.insync.replicas", "2");
        p.put("offsets.topic.replication.factor", "3");
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", "3");
        p.put("transaction.state.log.min.isr", "2");
        p.put("transaction.state.log.num.partitions", "4");
        p.put("share.coordinator.state.topic.replication.factor", "3");
        p.put("share.coordinator.state.topic.min.isr", "2");
        p.put("unclean.leader.election.enable", "false");
        // the broker's time on every event (the sender registry compares it with its grants)
        p.put("log.message.timestamp.type", "LogAppendTime");
        p.put("group.initial.rebalance.delay.ms", "0");
        // a dead projector's open transaction is aborted within a second of its timeout, not ten: the
        // surviving instance waits for that abort before it reads the partition's offsets (decision 104)
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        // a dead node is fenced (and dropped from every ISR) within 4 s, before the projector's 5 s
        // transaction timeout: a coordinator's transaction-log append, which waits for the whole ISR
        // with that timeout, then completes instead of failing (Kafka's 9 s default made it fail)
        p.put("broker.session.timeout.ms", "4000");
        p.put("broker.heartbeat.interval.ms", "1000");
        // a failed append is retried when the coordinator's marker thread next wakes, at the latest
        // after request.timeout.ms (30 s by default): the 34-36 s broker-leader-kill recoveries
        p.put("request.timeout.ms", "5000");
        // the projectors' group may wait less than Kafka's least 6 s for a dead instance (decision 116)
        p.put("group.min.session.timeout.ms", "3000");
        p.put("auto.create.topics.enable", "false");
        p.put("log.retention.ms", "-1");
        p.put("log.retention.bytes", "-1");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        return p;
    }

    private static void format(Node n, String clusterId) {
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(n.id)
                    .setClusterId(clusterId)
                    .setDirectories(
                            List.of(n.dir.resolve("log").toAbsolutePath().toString()))
                    .setMetadataLogDirectory(
                            n.dir.resolve("log").toAbsolutePath().toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setControllerListenerName("CONTROLLER")
                    .setIgnoreFormatted(true)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka node " + n.id + ": " + e.getMessage(), e);
        }
    }

    /** {@code host:port} of every node. */
    public String bootstrap() {
        StringBuilder b = new StringBuilder();
        for (Node n : nodes) {
            b.append(b.length() == 0 ? "" : ",").append("127.0.0.1:").append(n.port);
        }
        return b.toString();
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        return Admin.create(p);
    }

    /** Waits until {@code count} brokers are registered and unfenced. */
    public void awaitBrokers(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                for (Node n : nodes) {
                    JavaProcess p = n.process;
                    if (count == NODES && p != null && !p.isAlive()) { // all are meant to run
                        throw new IllegalStateException("Kafka node " + n.id + " exited; its output: " + p.log());
                    }
                }
                try {
                    int up = admin.describeCluster()
                            .nodes()
                            .get(5, TimeUnit.SECONDS)
                            .size();
                    if (up >= count) {
                        return;
                    }
                    last = up + " brokers";
                } catch (ExecutionException | TimeoutException e) {
                    last = e.getMessage();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the Kafka nodes", e);
                }
                JavaProcess.pause(200); // the cluster's metadata is the condition
            }
        }
        throw new IllegalStateException(
                "fewer than " + count + " Kafka brokers within " + timeout.toSeconds() + " s: " + last);
    }

    /** The node that leads {@code partition} of {@code topic} now. */
    public int leaderOf(String topic, int partition) {
        try (Admin admin = admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic);
            TopicPartitionInfo p = d.partitions().get(partition);
            if (p.leader() == null || p.leader().isEmpty()) {
                throw new IllegalStateException(topic + "-" + partition + " has no leader");
            }
            return p.leader().id();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits until every partition of {@code topics} has all three replicas in sync (a restarted node caught up). */
    public void awaitFullyReplicated(List<String> topics, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                try {
                    boolean all = true;
                    for (TopicDescription d : admin.describeTopics(topics)
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS)
                            .values()) {
                        for (TopicPartitionInfo p : d.partitions()) {
                            if (p.isr().size() < NODES) {
                                all = false;
                                last = d.name() + "-" + p.partition() + " in sync: "
                                        + p.isr().size();
                            }
                        }
                    }
                    if (all) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    last = e.getMessage();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                JavaProcess.pause(200); // the partitions' in-sync replicas are the condition
            }
        }
        throw new IllegalStateException("not fully replicated within " + timeout.toSeconds() + " s: " + last);
    }

    /** SIGKILL of node {@code id}. */
    public void kill(int id) throws InterruptedException {
        node(id).process.kill();
    }

    /** Starts node {@code id} again on its data and waits until the cluster has three brokers. */
    public void restart(int id) {
        node(id).process.restart();
        awaitBrokers(NODES, Duration.ofMinutes(2));
    }

    private Node node(int id) {
        return nodes.stream()
                .filter(n -> n.id == id)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Kafka node " + id));
    }

    @Override
    public void close() {
        for (Node n : nodes) {
            if (n.process != null) {
                n.process.close();
            }
        }
    }
}
