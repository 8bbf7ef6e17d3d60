package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.TlogPolicy;
import org.electorallog.publisher.BoardPublication;
import org.electorallog.publisher.Publisher;
import org.electorallog.query.PublishedVoterPage;
import org.electorallog.query.QueryApiConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log publish-tiles}: the static publication (issue 45 item 1). Copies every board
 * of the projection (the shared configuration's database) into a directory in the C2SP tlog-tiles
 * layout, tiles before the checkpoint that needs them, for nginx ({@code infra/deploy/nginx-tiles.conf})
 * or any web server to serve; every {@code --interval-ms} until stopped, or {@code --once}.
 */
@Command(
        name = "publish-tiles",
        mixinStandardHelpOptions = true,
        description = "Publish every board's checkpoint and tiles into a directory for a web server to serve.")
public final class PublishTilesCommand implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "the directory a web server serves")
    Path dir;

    @Option(names = "--interval-ms", defaultValue = "1000", description = "between rounds; default ${DEFAULT-VALUE}")
    long intervalMs;

    @Option(
            names = "--entries",
            description = "also the entry bundles (whole statements) and signature bundles: only where every "
                    + "statement kind is public (docs/security.md)")
    boolean entries;

    @Option(
            names = "--voter-page",
            description =
                    "also write the voter page into _voter/ of the directory: served beside the boards, it checks a "
                            + "ballot from the published files alone (docs/witnesses.md \"The voter page\")")
    boolean voterPage;

    @Option(
            names = "--policy",
            paramLabel = "FILE",
            description = "a C2SP tlog-policy file (the one GET /boards/{board}/policy serves) to publish as policy "
                    + "beside each board's checkpoint, so that the rule the checkpoints are witnessed by is kept with "
                    + "them (verify-board --policy reads it)")
    Path policy;

    @Option(names = "--once", description = "one round, then exit (0: every board published, 1: some failed)")
    boolean once;

    Map<String, String> environment = System.getenv();
    PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        Configuration conf = Configuration.load(environment);
        String policyText = null;
        if (policy != null) {
            try {
                policyText = Files.readString(policy);
                TlogPolicy.parse(policyText); // refused here, with its reason, rather than published
            } catch (IOException | IllegalArgumentException e) {
                out.println("publish-tiles: --policy " + policy + ": " + e.getMessage());
                return 2;
            }
        }
        Publisher.Settings settings = new Publisher.Settings(
                DatabaseLogin.of(conf), dir, Duration.ofMillis(Math.max(50, intervalMs)), entries, policyText);
        if (!once) {
            try (Publisher p = Publisher.start(settings)) {
                writePage(p, conf);
                out.println("publish-tiles: publishing every " + intervalMs + " ms into " + dir + " (Ctrl-C stops)");
                Thread.currentThread().join();
            }
            return 0;
        }
        try (Publisher p = Publisher.open(settings)) {
            if (!p.holdsLock()) {
                out.println("publish-tiles: another publisher holds the lock; nothing done");
                return 1;
            }
            writePage(p, conf);
            int failed = 0;
            for (String board : p.boards()) {
                try {
                    BoardPublication.Outcome o = p.publish(board);
                    out.printf(
                            "%s: checkpoint %,d (published before: %,d), %d file(s) written%n",
                            board, o.size(), o.previous(), o.files());
                } catch (IOException | RuntimeException e) {
                    failed++;
                    out.printf("%s: NOT published: %s%n", board, e);
                }
            }
            return failed == 0 ? 0 : 1;
        }
    }

    private void writePage(Publisher p, Configuration conf) throws IOException {
        if (voterPage) {
            // in the languages the query API's page offers (ELECTORAL_LOG_VOTER_LANGUAGES)
            p.writePage(PublishedVoterPage.files(Publisher.PAGE_DIR, QueryApiConfig.voterLanguages(conf)));
            out.println("publish-tiles: the voter page is at /" + Publisher.PAGE_DIR + "/ of " + dir);
        }
    }
}
