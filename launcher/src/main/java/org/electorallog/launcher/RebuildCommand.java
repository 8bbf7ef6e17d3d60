package org.electorallog.launcher;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.projector.ProjectorConfig;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Replay;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log rebuild --into <jdbc-url>}: recovery by replay (BRIEF invariant 2,
 * docs/operations.md "Recovery by replay"). Projects the events topic from offset 0 into an empty
 * database with exactly the projector's configuration (the shared configuration: Kafka security,
 * secrets, signature policy, sender registry, origin prefix, signing key), showing progress with an
 * ETA; then audits every board of the result (the log's signature on every checkpoint) and, when
 * the live projection ({@code ELECTORAL_LOG_JDBC_URL}) answers, compares the two board by board. It
 * works when the live database is gone: the sender registry then comes from a file
 * ({@code senders export}). Exit 0 when every audit is clean and the comparison (if any) equal, 1 on
 * findings or differences, 2 on any other failure with a one-line message.
 */
@Command(
        name = "rebuild",
        mixinStandardHelpOptions = true,
        description = "Replay the topic into an empty database with the projector's configuration, audit it and "
                + "compare it with the live projection. Exit 0 equal and clean, 1 findings, 2 failure.")
public final class RebuildCommand implements Callable<Integer> {
    @Option(
            names = "--into",
            required = true,
            paramLabel = "JDBC-URL",
            description = "an empty database to rebuild into (same login as the projector's)")
    String into;

    @Option(
            names = "--registry",
            paramLabel = "FILE",
            description = "the sender registry to apply (electoral-log senders export); default: copied from the "
                    + "live projection")
    Path registry;

    @Option(names = "--timeout", defaultValue = "86400", description = "seconds allowed for the replay")
    int timeoutSeconds;

    @Option(names = "--results", paramLabel = "FILE", description = "write the replay's figures here as JSON")
    Path results;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            return rebuild();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("\nrebuild: interrupted");
            return 2;
        } catch (Exception e) {
            err.println("\nrebuild: " + AuditCommand.oneLine(e));
            return 2;
        }
    }

    private int rebuild() throws Exception {
        Configuration conf = Configuration.load(environment);
        ProjectorSettings live = ProjectorConfig.from(conf);
        // the audit's settings (log keys, signature policy, witnesses) are read now, so a bad one is
        // refused before the replay rather than after it (the audit runs per board at the end)
        var unusedAuditOptions = AuditCommand.options(conf, "", List.of());
        Rebuilding.Outcome o = new Rebuilding(conf, live, into, registry, out).run(Duration.ofSeconds(timeoutSeconds));
        if (results != null) {
            Map<String, Object> figures = new LinkedHashMap<>(o.figures());
            figures.put("clean", o.problems().isEmpty());
            figures.put("cores", Runtime.getRuntime().availableProcessors());
            figures.put("commit", commit());
            Files.writeString(
                    results,
                    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(figures) + "\n",
                    StandardCharsets.UTF_8);
        }
        if (o.problems().isEmpty()) {
            out.println("rebuild: done; to promote it, see docs/operations.md \"Recovery by replay\"");
            return 0;
        }
        return 1;
    }

    static Map<Integer, Long> endOffsets(String servers, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers);
        return Replay.endOffsets(p, topic);
    }

    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? s : "unknown";
        } catch (Exception e) {
            return "unknown";
        }
    }
}
