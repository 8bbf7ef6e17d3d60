package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.TlogPolicy;
import org.electorallog.monitor.Finding;
import org.electorallog.monitor.FindingWebhook;
import org.electorallog.monitor.Monitor;
import org.electorallog.monitor.MonitorMetrics;
import org.electorallog.verifier.LogEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log monitor}: an observer follows the log from the outside (issue 42 item 2,
 * docs/witnesses.md "Monitoring a log"). Every {@code --interval} seconds it looks at each board
 * through each API and reports forks, sealed boards that grow and bad signatures with their
 * evidence; {@code --once} looks once and exits 0 when nothing was found, 1 when something was, 2
 * on bad options.
 */
@Command(
        name = "monitor",
        mixinStandardHelpOptions = true,
        description = "Follow the log's boards over HTTP and report forks, sealed boards that grow and bad signatures.")
public final class MonitorCommand implements Callable<Integer> {
    @Option(names = "--url", description = "a query API of the log (repeatable: replicas, mirrors)")
    List<String> urls = new ArrayList<>();

    @Option(
            names = "--tiles-url",
            description =
                    "a static publication of the log (publish-tiles behind a web server; repeatable; needs --board)")
    List<String> tilesUrls = new ArrayList<>();

    @Option(
            names = "--mirror",
            description = "a mirror of the log (C2SP tlog-mirror, `electoral-log mirror`; repeatable; needs --board): "
                    + "each board's copy at <URL>/<hex SHA-256 of --origin-prefix + board>")
    List<String> mirrors = new ArrayList<>();

    @Option(names = "--log-key", description = "the log's verifier key (repeatable)")
    List<String> logKeys = new ArrayList<>();

    @Option(
            names = "--policy",
            description = "a C2SP tlog-policy file naming the log's keys and the witnesses (instead of --log-key and "
                    + "--witness-key); GET /boards/{board}/policy serves the log's")
    Path policy;

    @Option(
            names = "--origin-prefix",
            defaultValue = "electoral-log.local/",
            description = "the log's origin prefix, the board name follows it; default ${DEFAULT-VALUE}")
    String originPrefix;

    @Option(names = "--witness-key", description = "a witness's cosignature verifier key (repeatable)")
    List<String> witnessKeys = new ArrayList<>();

    @Option(names = "--board", description = "a board to follow (repeatable); default every board the first API lists")
    List<String> boards = new ArrayList<>();

    @Option(names = "--token", description = "a bearer token to send (entry bundles need an observer's)")
    String token;

    @Option(names = "--state", defaultValue = "monitor-state", description = "default ${DEFAULT-VALUE}")
    Path state;

    @Option(names = "--once", description = "look once; exit 0 when nothing was found, 1 otherwise")
    boolean once;

    @Option(names = "--interval", defaultValue = "10", description = "seconds between looks; default ${DEFAULT-VALUE}")
    int interval;

    @Option(names = "--metrics-port", description = "serve Prometheus metrics on this port (127.0.0.1)")
    Integer metricsPort;

    @Option(
            names = "--webhook",
            description = "post each finding to this URL (JSON, at least once, in order; retried at each look)")
    URI webhookUrl;

    private final PrintStream out;
    private final PrintStream err;

    public MonitorCommand() {
        this(System.out, System.err);
    }

    /** Writing its findings to {@code out} and its errors to {@code err}. */
    public MonitorCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
        Monitor.Settings settings;
        FindingWebhook webhook;
        try {
            List<LogEndpoint> endpoints = new ArrayList<>();
            if (urls.isEmpty() && tilesUrls.isEmpty() && mirrors.isEmpty()) {
                throw new IllegalArgumentException("give --url, --tiles-url or --mirror");
            }
            if ((!tilesUrls.isEmpty() || !mirrors.isEmpty()) && boards.isEmpty()) {
                throw new IllegalArgumentException(
                        "a static publication or a mirror lists no boards: name them with --board");
            }
            urls.forEach(u -> endpoints.add(new LogEndpoint(u, token)));
            tilesUrls.forEach(u -> endpoints.add(LogEndpoint.published(u)));
            mirrors.forEach(u -> endpoints.add(LogEndpoint.mirror(u, originPrefix)));
            List<NoteVerifier> keys = new ArrayList<>();
            List<Cosigner.Verifier> witnesses = new ArrayList<>();
            if (policy != null) {
                if (!logKeys.isEmpty() || !witnessKeys.isEmpty()) {
                    throw new IllegalArgumentException("--policy names the log's keys and the witnesses: "
                            + "give it without --log-key, --witness-key");
                }
                TlogPolicy p = TlogPolicy.parse(Files.readString(policy));
                keys.addAll(p.logKeys());
                witnesses.addAll(p.witnessKeys());
            } else {
                logKeys.forEach(k -> keys.add(NoteVerifier.parse(k)));
                witnessKeys.forEach(k -> witnesses.add(Cosigner.Verifier.parse(k)));
            }
            if (interval < 1) {
                throw new IllegalArgumentException("--interval must be at least 1 second");
            }
            settings = new Monitor.Settings(endpoints, keys, witnesses, originPrefix, boards, state);
            webhook = webhookUrl == null ? null : new FindingWebhook(webhookUrl, state, Duration.ofSeconds(10));
        } catch (IllegalArgumentException | IOException e) {
            err.println("monitor: " + e.getMessage());
            return 2;
        }
        try (MonitorMetrics metrics = new MonitorMetrics()) {
            if (metricsPort != null) {
                out.println(
                        "monitor: metrics on http://127.0.0.1:" + metrics.serve("127.0.0.1", metricsPort) + "/metrics");
            }
            Monitor monitor = new Monitor(settings, metrics, out::println);
            if (once) {
                List<Finding> found = monitor.pass();
                deliver(webhook, metrics);
                out.println("monitor: " + found.size() + " finding(s); state in " + state.toAbsolutePath());
                return found.isEmpty() ? 0 : 1;
            }
            out.println("monitor: following " + String.join(", ", urls) + " every " + interval + " s; state in "
                    + state.toAbsolutePath());
            while (true) {
                monitor.pass();
                deliver(webhook, metrics);
                Thread.sleep(interval * 1000L); // the interval between looks, not a synchronisation
            }
        }
    }

    /** Hands the findings the webhook has not taken to it; a failure is said and retried at the next look. */
    private void deliver(FindingWebhook webhook, MonitorMetrics metrics) {
        if (webhook == null) {
            return;
        }
        FindingWebhook.Round r;
        try {
            r = webhook.deliver();
        } catch (IOException e) {
            r = new FindingWebhook.Round(0, -1, "cannot read the findings: " + e.getMessage());
        }
        metrics.webhook(Math.max(0, r.pending()), r.failure() != null);
        if (r.failure() != null) {
            err.println(
                    "monitor: " + r.failure() + " (" + r.pending() + " finding(s) wait; tried again at the next look)");
        }
    }
}
