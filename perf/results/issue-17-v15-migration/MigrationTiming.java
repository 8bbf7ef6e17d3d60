import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;

/**
 * Times this build's migrations (V15 among them) on the PostgreSQL of a perf stack filled by an
 * older build, and the disk its data directory took at most while they ran (sampled every 2 s).
 *
 * <pre>
 * java -cp "launcher/target/launcher-0.1.0-SNAPSHOT.jar:launcher/target/lib/*" \
 *     perf/results/issue-17-v15-migration/MigrationTiming.java WORK COMMIT OUT.json
 * </pre>
 *
 * PostgreSQL gets the perf harness's settings (PerfEnvironment.PG_SETTINGS) over the embedded
 * defaults, as the fill that made the stack had them. Kafka is not started: migrations touch only
 * PostgreSQL.
 */
public class MigrationTiming {
    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        String commit = args[1];
        Path out = Path.of(args[2]);
        Map<String, String> settings = new LinkedHashMap<>(EmbeddedPostgresServer.DEFAULT_SETTINGS);
        settings.putAll(Map.of("shared_buffers", "2GB", "effective_cache_size", "12GB", "max_wal_size", "8GB"));
        Path dataDir = work.resolve("postgres").resolve("data");
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("commit", commit);
        r.put("work", work.toString());
        r.put("postgresql_settings", settings);
        try (EmbeddedPostgresServer pg = EmbeddedPostgresServer.open(work.resolve("postgres"), settings)) {
            var a = pg.address();
            try (var ds = ProjectionDatabase.pool(a.jdbcUrl(), a.user(), a.password(), 4, "migration-timing")) {
                r.put("before", state(ds.getConnection(), dataDir));
                AtomicLong peak = new AtomicLong(dirBytes(dataDir));
                Thread sampler = new Thread(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        peak.accumulateAndGet(dirBytes(dataDir), Math::max);
                        try {
                            Thread.sleep(2000); // the sampling interval, not a synchronisation
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.setDaemon(true);
                sampler.start();
                long t0 = System.nanoTime();
                int version = Migrations.apply(ds);
                double seconds = (System.nanoTime() - t0) / 1e9;
                sampler.interrupt();
                sampler.join();
                r.put("migrated_to", version);
                r.put("migration_seconds", Math.round(seconds * 10) / 10.0);
                r.put("data_directory_peak_bytes", peak.get());
                r.put("after", state(ds.getConnection(), dataDir));
            }
        }
        Files.writeString(out, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(r));
        System.out.println(Files.readString(out));
    }

    private static Map<String, Object> state(Connection c, Path dataDir) throws Exception {
        Map<String, Object> s = new LinkedHashMap<>();
        try (c;
                Statement st = c.createStatement()) {
            s.put("schema_version", Migrations.appliedVersion(c));
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM records")) {
                rs.next();
                s.put("records", rs.getLong(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT pg_database_size(current_database())")) {
                rs.next();
                s.put("database_bytes", rs.getLong(1));
            }
            try (ResultSet rs = st.executeQuery(
                    "SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_partition_tree('records')")) {
                rs.next();
                s.put("records_bytes", rs.getLong(1));
            }
        }
        s.put("data_directory_bytes", dirBytes(dataDir));
        return s;
    }

    private static long dirBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (java.io.IOException e) {
                    return 0; // a file removed while walking (WAL recycled)
                }
            }).sum();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return 0; // a directory removed while walking; the next sample counts it
        }
    }
}
