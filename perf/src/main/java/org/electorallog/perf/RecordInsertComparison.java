package org.electorallog.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Hex;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.Projection;
import org.electorallog.store.RecordInserter;
import org.electorallog.store.RecordRow;
import org.electorallog.store.Servers;

/**
 * Measures the two ways the projector can write a batch of records (issue 5: "binary COPY or
 * INSERT ... SELECT FROM UNNEST; measure both and keep the faster"): the same realistic rows, into
 * a fresh records table with every index, one transaction per batch, alternating methods over
 * several rounds. Writes {@code perf/results/record-insert.json}.
 *
 * <pre>java -cp "perf/target/perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" org.electorallog.perf.RecordInsertComparison [records] [batch] [rounds]</pre>
 */
public final class RecordInsertComparison {
    private RecordInsertComparison() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<RecordRow> rows = rows(records);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("perf/target/stack")), "insert-");
        StringBuilder json = new StringBuilder();
        json.append("{\"records\":")
                .append(records)
                .append(",\"batch\":")
                .append(batch)
                .append(",\"postgresql\":\"18.6 embedded, fsync on, synchronous_commit on\",\"runs\":[");
        try (EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(dir)) {
            DatabaseLogin db = pg.address();
            int n = 0;
            for (int round = 0; round < rounds; round++) {
                for (RecordInserter method : RecordInserter.values()) {
                    String name = "insert_" + method.name().toLowerCase(Locale.ROOT) + "_" + round;
                    Servers.createDatabase(db, name);
                    String url = db.jdbcUrl().replace("/postgres", "/" + name);
                    try (Projection ds = Projection.open(new DatabaseLogin(url, db.user(), db.password()), 2, name)) {
                        ds.migrate();
                        // partitions attached before the clock starts
                        Map<Short, Long> last = new HashMap<>();
                        rows.forEach(r -> last.merge(r.boardId(), r.id(), Math::max));
                        ds.commit(w -> {
                            last.forEach(w::coverPartitions);
                            return null;
                        });
                        long t0 = System.nanoTime();
                        for (int i = 0; i < rows.size(); i += batch) {
                            List<RecordRow> part = rows.subList(i, Math.min(rows.size(), i + batch));
                            ds.commit(w -> {
                                w.insertRecords(method, part);
                                return null;
                            });
                        }
                        double seconds = (System.nanoTime() - t0) / 1e9;
                        double rate = records / seconds;
                        System.out.printf(
                                Locale.ROOT,
                                "round %d %-12s %,10.0f records/s (%.2f s)%n",
                                round,
                                method,
                                rate,
                                seconds);
                        json.append(n++ == 0 ? "" : ",")
                                .append(String.format(
                                        Locale.ROOT,
                                        "{\"round\":%d,\"method\":\"%s\",\"seconds\":%.3f,\"records_per_second\":%.0f}",
                                        round,
                                        method,
                                        seconds,
                                        rate));
                    }
                }
            }
        }
        json.append("]}\n");
        Path out = Path.of("perf/results/record-insert.json");
        Files.createDirectories(out.getParent());
        Files.writeString(out, json.toString());
        System.out.println("written to " + out);
    }

    /** Records shaped like the brief's election: 4 identity-provider events and 1 cast vote per voter. */
    static List<RecordRow> rows(int n) {
        Random random = new Random(11);
        List<RecordRow> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean vote = i % 5 == 4;
            int voter = i / 5;
            byte[] statement = new byte[vote ? 700 : 330 + random.nextInt(120)];
            random.nextBytes(statement);
            String user =
                    String.format("%08x-%04x-4%03x-a%03x-%012x", voter, voter & 0xffff, voter & 0xfff, 7, (long) voter);
            out.add(new RecordRow(
                    (short) 1,
                    i,
                    1_767_225_600_000L + i,
                    1_767_225_600_000L + i,
                    (short) (vote ? 1 : 3),
                    1,
                    new IndexedFields(
                            user,
                            "voter" + voter + "@example.org",
                            vote ? "election-" + (voter % 5) : null,
                            "area-" + random.nextInt(1000),
                            vote ? Hex.encode(Arrays.copyOf(statement, 32)) : null),
                    "delivery-" + i + "-" + new String(new char[] {(char) ('a' + i % 26)}),
                    statement,
                    1,
                    0,
                    i,
                    null,
                    null));
        }
        return out;
    }
}
