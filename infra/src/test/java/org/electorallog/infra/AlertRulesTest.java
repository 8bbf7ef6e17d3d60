package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 69 item 3: the alert rules behave as written, checked by Prometheus's own tools (Debian's
 * {@code prometheus} and {@code prometheus-alertmanager}, which .ci/run installs): {@code promtool
 * check rules} and {@code promtool test rules} (each rule's firing and quiet cases in the
 * {@code *.test.yml} files beside them), and {@code amtool check-config} on the example routing. A
 * rule changed so that a case no longer holds fails here, and so does a changed copy of a rule
 * (the last test: the tests are not a rubber stamp).
 */
class AlertRulesTest {
    private static final List<String> RULES = List.of("prometheus-rules.yml", "monitor-rules.yml");
    private static final List<String> CASES = List.of("prometheus-rules.test.yml", "monitor-rules.test.yml");

    @Test
    void theRulesParseAndEveryCaseHolds() throws Exception {
        List<String> check = new ArrayList<>(List.of("promtool", "check", "rules"));
        check.addAll(RULES);
        Run checked = run(DeploymentFiles.DEPLOY, check);
        assertEquals(0, checked.code(), checked.out());
        List<String> test = new ArrayList<>(List.of("promtool", "test", "rules"));
        test.addAll(CASES);
        Run tested = run(DeploymentFiles.DEPLOY, test);
        assertEquals(0, tested.code(), tested.out());
        assertEquals(CASES.size(), count(tested.out(), "SUCCESS"), tested.out());
    }

    @Test
    void theAlertmanagerExampleIsValid() throws Exception {
        Run r = run(DeploymentFiles.DEPLOY, List.of("amtool", "check-config", "alertmanager.yml"));
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("2 receivers"), r.out());
    }

    /** A copy of the rules with each new rule's threshold moved: every such rule's case fails. */
    @Test
    void aChangedRuleFailsItsCase() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "rules-");
        for (String f : CASES) {
            Files.copy(DeploymentFiles.DEPLOY.resolve(f), dir.resolve(f));
        }
        String operator = Files.readString(DeploymentFiles.DEPLOY.resolve("prometheus-rules.yml"))
                .replace(
                        "(electoral_log_board_unwitnessed_records) > 1000",
                        "(electoral_log_board_unwitnessed_records) > 10000")
                .replace(
                        "(electoral_log_witness_cosignature_age_seconds) > 900",
                        "(electoral_log_witness_cosignature_age_seconds) > 9000");
        String observer = Files.readString(DeploymentFiles.DEPLOY.resolve("monitor-rules.yml"))
                .replace("labels: {severity: critical}", "labels: {severity: warning}")
                .replace("[15m])) > 0\n        for: 15m", "[15m])) > 0\n        for: 30m")
                .replace("(electoral_log_monitor_webhook_pending) > 0", "(electoral_log_monitor_webhook_pending) > 1");
        Files.writeString(dir.resolve("prometheus-rules.yml"), operator);
        Files.writeString(dir.resolve("monitor-rules.yml"), observer);
        List<String> test = new ArrayList<>(List.of("promtool", "test", "rules"));
        test.addAll(CASES);
        Run r = run(dir, test);
        assertEquals(1, r.code(), r.out());
        for (String alert : List.of(
                "RecordsUnwitnessed",
                "WitnessNotCosigning",
                "MonitorFinding",
                "MonitorCannotReachLog",
                "MonitorWebhookBehind")) {
            assertTrue(r.out().contains("alertname: " + alert), alert + " not failed:\n" + r.out());
        }
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
            n++;
        }
        return n;
    }

    private record Run(int code, String out) {}

    private static Run run(Path dir, List<String> command) throws Exception {
        Path out = Files.createTempFile("alert-rules", ".out");
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    command.get(0) + " not found: these tests need Prometheus's promtool and Alertmanager's amtool "
                            + "(.ci/run installs Debian's prometheus and prometheus-alertmanager)",
                    e);
        }
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not end within 2 minutes");
        }
        try {
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.delete(out);
        }
    }
}
