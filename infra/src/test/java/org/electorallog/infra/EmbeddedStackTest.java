package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.electorallog.config.DatabaseLogin;
import org.junit.jupiter.api.Test;

class EmbeddedStackTest {

    @Test
    void startsRealServersAndLeavesNothingBehind() throws Exception {
        Path parent = Path.of(System.getProperty("electoral-log.work-dir", "target/stack"), "own");
        Set<String> threadsBefore = threadNames();
        EmbeddedStack stack = EmbeddedStack.start(parent, true);
        Path dir = stack.workDir();
        ProcessHandle postmaster = stack.postgres().process().orElseThrow();
        List<ProcessHandle> pgProcesses;
        try {
            // PostgreSQL answers SQL
            DatabaseLogin db = stack.database();
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                    ResultSet rs =
                            c.createStatement().executeQuery("select current_setting('server_version_num')::int")) {
                assertTrue(rs.next() && rs.getInt(1) >= 180000, "PostgreSQL 18");
            }
            // Kafka stores and serves a record
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafkaBootstrap()))) {
                admin.createTopics(List.of(new NewTopic("smoke", 1, (short) 1)))
                        .all()
                        .get();
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(
                    Map.of("bootstrap.servers", stack.kafkaBootstrap()),
                    new StringSerializer(),
                    new StringSerializer())) {
                p.send(new ProducerRecord<>("smoke", "k", "v")).get();
            }
            Properties cp = new Properties();
            cp.put("bootstrap.servers", stack.kafkaBootstrap());
            cp.put("group.id", "smoke");
            cp.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<String, String> c =
                    new KafkaConsumer<>(cp, new StringDeserializer(), new StringDeserializer())) {
                c.subscribe(List.of("smoke"));
                ConsumerRecords<String, String> recs = ConsumerRecords.empty();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (recs.isEmpty() && System.nanoTime() < deadline) {
                    recs = c.poll(Duration.ofMillis(500));
                }
                assertEquals(1, recs.count());
                assertEquals("v", recs.iterator().next().value());
            }
            pgProcesses = postmaster.descendants().collect(Collectors.toList());
            pgProcesses.add(postmaster);
            assertTrue(postmaster.isAlive());
        } finally {
            stack.close();
        }
        for (ProcessHandle p : pgProcesses) {
            assertFalse(ProcessLiveness.isRunning(p), "PostgreSQL process " + p.pid() + " still running after stop");
        }
        assertFalse(
                ProcessHandle.allProcesses()
                        .filter(ProcessLiveness::isRunning)
                        .anyMatch(p -> p.info().commandLine().orElse("").contains(dir.toString())),
                "a process still names the stack directory");
        assertFalse(Files.exists(dir), "stack directory " + dir + " left behind");
        Set<String> leftover = threadNames();
        leftover.removeAll(threadsBefore);
        leftover.removeIf(n -> !(n.contains("kafka")
                || n.contains("broker")
                || n.contains("controller")
                || n.contains("raft")
                || n.contains("quorum")));
        assertEquals(Set.of(), leftover, "broker threads left after stop");
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(t -> t.getName().toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.toSet());
    }
}
