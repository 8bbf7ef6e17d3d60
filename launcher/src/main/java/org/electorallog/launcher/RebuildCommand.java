package org.electorallog.launcher;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.electorallog.core.NoteSigner;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.Topics;
import org.electorallog.store.ProjectionComparison;
import org.electorallog.store.ProjectionDatabase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log rebuild --into <jdbc-url>}: projects the events topic from offset 0 into an
 * empty database (BRIEF invariant 2), then compares every board's size, root, records, tiles and
 * counters with the live projection. Exit 0 when equal, 1 on any difference, 2 on a usage error.
 */
@Command(
        name = "rebuild",
        mixinStandardHelpOptions = true,
        description = "Replay the topic from offset 0 into an empty database and compare it with the live projection.")
public final class RebuildCommand implements Callable<Integer> {
    @Option(
            names = "--into",
            required = true,
            paramLabel = "JDBC-URL",
            description = "an empty database to rebuild into")
    String into;

    @Option(
            names = "--from",
            paramLabel = "JDBC-URL",
            description = "the live projection; default $ELECTORAL_LOG_JDBC_URL")
    String from;

    @Option(names = "--user", description = "database user; default $ELECTORAL_LOG_DB_USER or postgres")
    String user;

    @Option(names = "--password", description = "database password; default $ELECTORAL_LOG_DB_PASSWORD or empty")
    String password;

    @Option(names = "--bootstrap", description = "Kafka bootstrap servers; default $ELECTORAL_LOG_KAFKA_BOOTSTRAP")
    String bootstrap;

    @Option(names = "--topic", defaultValue = Topics.EVENTS, description = "events topic; default ${DEFAULT-VALUE}")
    String topic;

    @Option(
            names = "--timeout",
            defaultValue = "3600",
            description = "seconds allowed for the replay; default ${DEFAULT-VALUE}")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        Map<String, String> env = System.getenv();
        String live = from != null ? from : env.get("ELECTORAL_LOG_JDBC_URL");
        String servers = bootstrap != null ? bootstrap : env.get("ELECTORAL_LOG_KAFKA_BOOTSTRAP");
        String dbUser = user != null ? user : env.getOrDefault("ELECTORAL_LOG_DB_USER", "postgres");
        String dbPassword = password != null ? password : env.getOrDefault("ELECTORAL_LOG_DB_PASSWORD", "");
        if (live == null || servers == null) {
            System.err.println("rebuild: name the live projection (--from or ELECTORAL_LOG_JDBC_URL) and Kafka "
                    + "(--bootstrap or ELECTORAL_LOG_KAFKA_BOOTSTRAP)");
            return 2;
        }
        try (HikariDataSource target = ProjectionDatabase.pool(into, dbUser, dbPassword, 2, "rebuild-target")) {
            if (org.electorallog.store.Boards.any(target)) {
                System.err.println(
                        "rebuild: " + into + " is not empty (it has boards); rebuild needs an empty database");
                return 2;
            }
        }
        Map<Integer, Long> end = endOffsets(servers, topic);
        long total = end.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("replaying %s (%,d offsets in %d partitions) into %s%n", topic, total, end.size(), into);
        Path state = Files.createTempDirectory("rebuild-state-");
        // dead letters of the replay go to a topic of their own: the live ones are already delivered
        org.electorallog.producer.EventsTopic.ensure(servers, topic + ".rebuild-dead-letters", 1, (short) 1);
        String key = env.get("ELECTORAL_LOG_SIGNING_KEY");
        NoteSigner signer = key != null ? NoteSigner.parse(key) : NoteSigner.generate("rebuild.electoral-log.local");
        ProjectorSettings settings = new ProjectorSettings(
                servers,
                topic,
                topic + ".rebuild-dead-letters",
                "electoral-log-rebuild-" + System.currentTimeMillis(),
                state,
                into,
                dbUser,
                dbPassword,
                5000,
                Duration.ofMillis(100),
                signer,
                ProjectorSettings.DEFAULT_ORIGIN_PREFIX,
                1);
        long t0 = System.nanoTime();
        try (Projector p = Projector.start(settings);
                HikariDataSource target = ProjectionDatabase.pool(into, dbUser, dbPassword, 2, "rebuild-progress")) {
            long deadline = t0 + Duration.ofSeconds(timeoutSeconds).toNanos();
            while (true) {
                Map<Integer, Long> stored = storedOffsets(target, topic);
                long done = 0;
                boolean complete = true;
                for (Map.Entry<Integer, Long> e : end.entrySet()) {
                    long s = Math.min(stored.getOrDefault(e.getKey(), 0L), e.getValue());
                    done += s;
                    complete &= s >= e.getValue();
                }
                progress(done, total);
                if (complete) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    System.out.println();
                    System.err.println("rebuild: the replay did not finish within " + timeoutSeconds + " s");
                    return 1;
                }
                Thread.sleep(200); // progress refresh interval
            }
        }
        System.out.printf("%nreplayed in %.1f s; comparing with %s%n", (System.nanoTime() - t0) / 1e9, live);
        List<String> differences;
        try (HikariDataSource a = ProjectionDatabase.pool(live, dbUser, dbPassword, 2, "rebuild-live");
                HikariDataSource b = ProjectionDatabase.pool(into, dbUser, dbPassword, 2, "rebuild-replay")) {
            differences = ProjectionComparison.compareWithReplay(a, b);
        }
        if (differences.isEmpty()) {
            System.out.println(
                    "rebuild: EQUAL: every board's size, root, records, tiles and counters match the replay");
            return 0;
        }
        System.out.println("rebuild: DIFFERENT:");
        differences.forEach(d -> System.out.println("  " + d));
        return 1;
    }

    static Map<Integer, Long> endOffsets(String servers, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers);
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            c.partitionsFor(topic).forEach(pi -> tps.add(new TopicPartition(topic, pi.partition())));
            Map<Integer, Long> out = new TreeMap<>();
            c.endOffsets(tps).forEach((tp, off) -> out.put(tp.partition(), off));
            return out;
        }
    }

    private static Map<Integer, Long> storedOffsets(HikariDataSource ds, String topic) throws java.sql.SQLException {
        return org.electorallog.store.PartitionLease.nextOffsets(ds, topic);
    }

    private static void progress(long done, long total) {
        int width = 30;
        int filled = total == 0 ? width : (int) (done * width / total);
        System.out.printf("\r[%s%s] %,d / %,d", "#".repeat(filled), ".".repeat(width - filled), done, total);
    }
}
