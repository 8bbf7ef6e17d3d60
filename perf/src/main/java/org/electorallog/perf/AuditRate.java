package org.electorallog.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.infra.EmbeddedStack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.Topics;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.BoardState;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;
import org.electorallog.store.ProjectionException;
import org.electorallog.store.StorageReport;

/**
 * Fills one board through the real pipeline (producer, embedded Kafka, projector, embedded
 * PostgreSQL), then measures the full audit's rate: a first run (right after the fill) and a warm
 * second run. Also records bytes per record. Writes {@code perf/results/audit-rate.json}.
 *
 * <pre>java -cp "perf/target/perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" org.electorallog.perf.AuditRate [records]</pre>
 */
public final class AuditRate {
    private AuditRate() {}

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        String board = "audit-rate";
        NoteSigner signer = NoteSigner.generate("perf.electoral-log.local");
        try (EmbeddedStack stack = EmbeddedStack.start(Path.of("perf/target/stack"), true)) {
            EventsTopic.ensure(stack.kafkaBootstrap(), Topics.EVENTS, 1, (short) 1);
            EventsTopic.ensure(stack.kafkaBootstrap(), Topics.DEAD_LETTERS, 1, (short) 1);
            DatabaseLogin db = stack.database();
            long t0 = System.nanoTime();
            try (Projector p = Projector.start(ProjectorSettings.defaults(
                            stack.kafkaBootstrap(), db, stack.workDir().resolve("streams"), signer));
                    ElectoralLogProducer producer = ElectoralLogProducer.create(stack.kafkaBootstrap())) {
                ElectionStatements gen = new ElectionStatements(board, 42);
                for (long v = 0; v * 5 < records; v++) {
                    for (Statement s : gen.voter(v)) {
                        producer.publish(s);
                    }
                }
                producer.flush();
                try (Projection ds = Projection.open(db, 1, "wait")) {
                    while (size(ds) < records) {
                        Thread.sleep(200); // poll interval; the board size is the condition
                    }
                }
            }
            double fill = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "filled %,d records in %.1f s (%.0f records/s through the pipeline)%n",
                    records,
                    fill,
                    records / fill);
            try (Projection ds = Projection.open(db, 2, "audit")) {
                StorageReport storage = ds.server().storageReport();
                AuditOptions options = AuditOptions.of(List.of(NoteVerifier.parse(signer.verifierKey())));
                AuditResult first = new BoardAuditor(ds, options).audit(board, new BoardAuditor.Progress());
                AuditResult warm = new BoardAuditor(ds, options).audit(board, new BoardAuditor.Progress());
                double r1 = first.recordsChecked() / first.seconds();
                double r2 = warm.recordsChecked() / warm.seconds();
                System.out.printf(
                        Locale.ROOT,
                        "audit: first %.1f s (%,.0f records/s), warm %.1f s (%,.0f records/s), %s; %.0f bytes/record%n",
                        first.seconds(),
                        r1,
                        warm.seconds(),
                        r2,
                        warm.clean() ? "clean" : "FINDINGS",
                        storage.bytesPerRecord());
                String json = String.format(
                        Locale.ROOT,
                        "{\"records\":%d,\"fill_seconds\":%.1f,\"fill_records_per_second\":%.0f,"
                                + "\"audit_first_seconds\":%.2f,\"audit_first_records_per_second\":%.0f,"
                                + "\"audit_warm_seconds\":%.2f,\"audit_warm_records_per_second\":%.0f,\"verdict\":\"%s\","
                                + "\"storage\":%s,\"machine\":\"2 cores, 24 GiB; Kafka, projector, PostgreSQL 18.6 and the audit on the same machine\"}%n",
                        records,
                        fill,
                        records / fill,
                        first.seconds(),
                        r1,
                        warm.seconds(),
                        r2,
                        warm.clean() ? "clean" : "findings",
                        storage.toJson());
                Path out = Path.of("perf/results/audit-rate.json");
                Files.createDirectories(out.getParent());
                Files.writeString(out, json);
                System.out.println("written to " + out);
            }
        }
    }

    private static long size(Projection ds) {
        try {
            return ds.statement(LogReader::boards).stream()
                    .mapToLong(BoardState::size)
                    .max()
                    .orElse(0);
        } catch (ProjectionException e) {
            return 0; // not migrated yet
        }
    }
}
