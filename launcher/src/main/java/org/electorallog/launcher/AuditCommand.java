package org.electorallog.launcher;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.audit.Finding;
import org.electorallog.core.NoteVerifier;
import org.electorallog.store.ProjectionDatabase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log audit --board <name>}: the full audit of a board with a progress bar; prints
 * the verdict, writes the result as JSON, exits 0 when clean and 1 with findings.
 */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = "Audit a board of the projection (BRIEF invariant 5).")
public final class AuditCommand implements Callable<Integer> {
    @Option(names = "--board", required = true, description = "the board to audit")
    String board;

    @Option(names = "--jdbc-url", description = "the projection; default $ELECTORAL_LOG_JDBC_URL")
    String jdbcUrl;

    @Option(names = "--user", description = "database user; default $ELECTORAL_LOG_DB_USER or postgres")
    String user;

    @Option(names = "--password", description = "database password; default $ELECTORAL_LOG_DB_PASSWORD or empty")
    String password;

    @Option(
            names = "--log-key",
            description = "the log's verifier key (name+id+key); checkpoint signatures are checked with it")
    List<String> logKeys = new ArrayList<>();

    @Option(names = "--require-sender-signatures", description = "every statement must carry a valid sender signature")
    boolean requireSender;

    @Option(
            names = "--system-key",
            description = "base64 Ed25519 system public key; every statement must carry a system signature by one")
    List<String> systemKeys = new ArrayList<>();

    @Option(names = "--out", description = "where to write the JSON result; default audit-<board>.json")
    Path out;

    @Override
    public Integer call() throws Exception {
        Map<String, String> env = System.getenv();
        String url = jdbcUrl != null ? jdbcUrl : env.get("ELECTORAL_LOG_JDBC_URL");
        if (url == null) {
            System.err.println("audit: name the projection with --jdbc-url or ELECTORAL_LOG_JDBC_URL");
            return 2;
        }
        List<NoteVerifier> keys = new ArrayList<>();
        List<byte[]> system = new ArrayList<>();
        try {
            logKeys.forEach(k -> keys.add(NoteVerifier.parse(k)));
            systemKeys.forEach(k -> system.add(Base64.getDecoder().decode(k)));
        } catch (IllegalArgumentException e) {
            System.err.println("audit: bad key: " + e.getMessage());
            return 2;
        }
        AuditOptions options = new AuditOptions(keys, requireSender, system, AuditOptions.DEFAULT_PAGE);
        BoardAuditor.Progress progress = new BoardAuditor.Progress();
        AuditResult result;
        try (HikariDataSource ds = ProjectionDatabase.pool(
                url,
                user != null ? user : env.getOrDefault("ELECTORAL_LOG_DB_USER", "postgres"),
                password != null ? password : env.getOrDefault("ELECTORAL_LOG_DB_PASSWORD", ""),
                2,
                "audit")) {
            CompletableFuture<AuditResult> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return new BoardAuditor(ds, options).audit(board, progress);
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
            while (!run.isDone()) {
                bar(progress);
                Thread.sleep(200); // progress refresh interval
            }
            try {
                result = run.join();
            } catch (java.util.concurrent.CompletionException e) {
                System.err.println("\naudit: " + e.getCause().getMessage());
                return 2;
            }
        }
        bar(progress);
        System.out.println();
        Path file = out != null ? out : Path.of("audit-" + board + ".json");
        Files.writeString(file, result.toJson() + "\n");
        System.out.printf(
                "audited %,d records of %s in %.1f s (%,.0f records/s): %s; result in %s%n",
                result.recordsChecked(),
                board,
                result.seconds(),
                result.recordsChecked() / Math.max(1e-9, result.seconds()),
                result.clean() ? "CLEAN" : "FINDINGS",
                file);
        for (Map.Entry<Finding.Kind, Long> e : result.counts().entrySet()) {
            Finding first = result.findings(e.getKey()).get(0);
            System.out.printf("  %-22s %,d (first: %s)%n", e.getKey(), e.getValue(), first.detail());
        }
        if (keys.isEmpty()) {
            System.out.println("  (checkpoint signatures were not checked: give --log-key)");
        }
        return result.clean() ? 0 : 1;
    }

    private static void bar(BoardAuditor.Progress p) {
        long total = p.total();
        long done = p.checked();
        int width = 30;
        int filled = total <= 0 ? 0 : (int) Math.min(width, done * width / total);
        System.out.printf(
                "\r[%s%s] %,d / %,d", "#".repeat(filled), ".".repeat(width - filled), done, Math.max(0, total));
    }
}
