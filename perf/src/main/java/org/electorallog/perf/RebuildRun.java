package org.electorallog.perf;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Replay;
import org.electorallog.schemas.Topics;
import org.electorallog.store.Projection;

/**
 * {@code perf rebuild}: recovery by replay measured. The whole events topic of the perf stack is
 * projected into a new, empty database on the same server by a projector with the perf projector's
 * settings and a fresh consumer group ({@link Replay}, as {@code electoral-log rebuild} does), and
 * the time from start to the last offset stored is the figure.
 */
final class RebuildRun {
    private RebuildRun() {}

    static Map<String, Object> rebuild(PerfEnvironment env, boolean keep) throws Exception {
        DatabaseLogin a = env.stack.database();
        String name = "perf_rebuild_" + System.currentTimeMillis();
        env.db.server().createDatabase(name);
        String url = a.jdbcUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
        String deadLetters = Topics.DEAD_LETTERS + ".rebuild";
        EventsTopic.ensure(env.stack.kafkaBootstrap(), deadLetters, 1, (short) 1);
        ProjectorSettings settings = env.projectorSettings(Duration.ofSeconds(1), Duration.ofMillis(100))
                .withDatabase(a.atUrl(url))
                .forReplay("perf-rebuild-" + System.currentTimeMillis(), deadLetters)
                .withStateDir(env.work.resolve("streams-" + name));
        Properties client = new Properties();
        client.put("bootstrap.servers", env.stack.kafkaBootstrap());
        Map<Integer, Long> end = Replay.endOffsets(client, Topics.EVENTS);
        long[] lastPrint = {0};
        Replay.Result r = Replay.run(settings, end, Duration.ofHours(12), line -> {
            long now = System.nanoTime();
            if (now - lastPrint[0] > 10_000_000_000L) {
                System.err.println(line);
                lastPrint[0] = now;
            }
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("events", r.events());
        out.put("seconds", Latencies.round(r.seconds()));
        out.put("events_per_second", Math.round(r.eventsPerSecond()));
        out.put("records_in_live_projection", env.total());
        try (Projection rebuilt = Projection.open(a.atUrl(url), 1, "perf-rebuilt")) {
            out.put(
                    "bytes_per_record",
                    Math.round(rebuilt.server().storageReport().bytesPerRecord()));
        }
        System.err.printf(
                "rebuild: %,d events in %.1f s (%,.0f events/s)%n", r.events(), r.seconds(), r.eventsPerSecond());
        if (!keep) {
            env.db.server().dropDatabase(name);
        }
        out.put("database", keep ? name : name + " (dropped)");
        out.putAll(env.describe());
        return out;
    }
}
