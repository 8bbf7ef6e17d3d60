package org.electorallog.launcher;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.audit.Finding;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.projector.SignaturePolicy;
import org.electorallog.store.Projection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log audit --board <name>}: the full audit of a board with a progress bar; prints
 * the verdict and writes the result as JSON. Settings come from the shared configuration
 * (docs/configuration.md: {@code ELECTORAL_LOG_JDBC_URL}, {@code _DB_USER}, {@code _DB_PASSWORD} or
 * {@code _FILE}, the log's keys in {@code _LOG_KEYS}, the signature policy, the witnesses whose
 * cosignatures are checked in {@code _WITNESSES}), never a password on the
 * command line. Exit 0 clean, 1 findings, 2 any other failure with a one-line message.
 */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = "Audit a board of the projection (BRIEF invariant 5). Exit 0 clean, 1 findings, 2 failure.")
public final class AuditCommand implements Callable<Integer> {
    @Option(names = "--board", required = true, description = "the board to audit")
    String board;

    @Option(
            names = "--log-key",
            description = "a verifier key of the log (name+id+key) besides those of ELECTORAL_LOG_LOG_KEYS")
    List<String> logKeys = new ArrayList<>();

    @Option(names = "--out", description = "where to write the JSON result; default audit-<board>.json")
    Path out;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream stdout = System.out;
    PrintStream stderr = System.err;

    @Override
    public Integer call() {
        try {
            return audit();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stderr.println("\naudit: interrupted");
            return 2;
        } catch (Exception e) {
            stderr.println("\naudit: " + oneLine(e));
            return 2;
        }
    }

    private int audit() throws Exception {
        Configuration conf = Configuration.load(environment);
        DatabaseLogin login = DatabaseLogin.of(conf);
        AuditOptions options = options(conf, board, logKeys);
        BoardAuditor.Progress progress = new BoardAuditor.Progress();
        AuditResult result;
        try (Projection ds = Projection.open(login, 2, "audit")) {
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
            } catch (CompletionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
        }
        bar(progress);
        stdout.println();
        Path file = out != null ? out : Path.of("audit-" + board + ".json");
        Files.writeString(file, result.toJson() + "\n");
        stdout.printf(
                "audited %,d records of %s in %.1f s (%,.0f records/s): %s; result in %s%n",
                result.recordsChecked(),
                board,
                result.seconds(),
                result.recordsChecked() / Math.max(1e-9, result.seconds()),
                result.clean() ? "CLEAN" : "FINDINGS",
                file);
        for (Map.Entry<Finding.Kind, Long> e : result.counts().entrySet()) {
            Finding first = result.findings(e.getKey()).get(0);
            stdout.printf("  %-22s %,d (first: %s)%n", e.getKey(), e.getValue(), first.detail());
        }
        if (options.logKeys().isEmpty()) {
            stdout.println("  (checkpoint signatures were not checked: set ELECTORAL_LOG_LOG_KEYS or give --log-key)");
        }
        return result.clean() ? 0 : 1;
    }

    /**
     * The audit options of a board under the configuration: the log's keys, and the signatures the
     * projector's signature policy requires on that board.
     */
    static AuditOptions options(Configuration conf, String board, List<String> extraKeys) {
        List<NoteVerifier> keys = new ArrayList<>();
        List<String> all = new ArrayList<>(conf.list(Setting.LOG_KEYS));
        all.addAll(extraKeys);
        for (String k : all) {
            try {
                keys.add(NoteVerifier.parse(k));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a signed-note verifier key (" + e.getMessage() + ")");
            }
        }
        SignaturePolicy policy = SignaturePolicy.parse(
                conf.get(Setting.SIGNATURE_POLICY),
                conf.get(Setting.SIGNED_BOARDS),
                conf.get(Setting.SYSTEM_PUBLIC_KEYS),
                conf.get(Setting.SENDER_REGISTRY));
        boolean covered = policy.mode() != SignaturePolicy.Mode.NONE
                && policy.boards().matcher(board).matches();
        return new AuditOptions(
                keys,
                covered,
                covered && policy.mode() == SignaturePolicy.Mode.SENDER_AND_SYSTEM ? policy.systemKeys() : List.of(),
                AuditOptions.DEFAULT_PAGE,
                WitnessPolicy.of(
                        conf.fileText(Setting.WITNESS_POLICY_FILE),
                        conf.list(Setting.WITNESSES),
                        conf.get(Setting.WITNESS_QUORUM)));
    }

    /** An exception as one line: its message, or its class when it has none. */
    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private void bar(BoardAuditor.Progress p) {
        long total = p.total();
        long done = p.checked();
        int width = 30;
        int filled = total <= 0 ? 0 : (int) Math.min(width, done * width / total);
        stdout.printf("\r[%s%s] %,d / %,d", "#".repeat(filled), ".".repeat(width - filled), done, Math.max(0, total));
    }
}
