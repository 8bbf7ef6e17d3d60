package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.config.Setting;
import org.junit.jupiter.api.Test;

/**
 * Issue 9: the deployment files parse, have what a deployment needs (images, ports, probes, topic
 * settings), and every electoral-log setting they use is in the configuration catalogue
 * (docs/configuration.md), with each process's required settings present.
 */
class DeploymentFilesTest {
    static final Path DEPLOY = Path.of("deploy");
    static final ObjectMapper JSON = new ObjectMapper();

    /** Every YAML document of a file; SnakeYAML resolves anchors, aliases and merge keys as compose does. */
    static List<JsonNode> documents(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (Object doc : new org.yaml.snakeyaml.Yaml().loadAll(Files.readString(file))) {
            if (doc != null) {
                out.add(JSON.valueToTree(doc));
            }
        }
        return out;
    }

    static void assertKnownSettings(Iterable<String> names, String where) {
        for (String name : names) {
            if (name.startsWith("ELECTORAL_LOG_")) {
                assertTrue(
                        Setting.byName(name).isPresent(), name + " in " + where + " is not in docs/configuration.md");
            }
        }
    }

    static Set<String> keys(JsonNode object) {
        Set<String> out = new HashSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** A process may be started with its required settings: from env, a secret file, or a default-less catalogue entry. */
    static void assertRequired(Set<String> env, String process, String where) {
        List<String> required = process.equals("projector")
                ? List.of("ELECTORAL_LOG_KAFKA_BOOTSTRAP", "ELECTORAL_LOG_JDBC_URL", "ELECTORAL_LOG_SIGNING_KEY")
                : List.of("ELECTORAL_LOG_JDBC_URL");
        for (String r : required) {
            assertTrue(env.contains(r) || env.contains(r + "_FILE"), where + " lacks " + r);
        }
    }

    @Test
    void composeRunsThreeBrokersPostgres18TwoProjectorsTwoQueryApisAndPrometheus() throws Exception {
        JsonNode compose = documents(DEPLOY.resolve("compose.yaml")).get(0);
        JsonNode services = compose.get("services");
        for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
            JsonNode b = services.get(broker);
            assertTrue(b.get("image").asText().startsWith("apache/kafka:"), broker);
            assertEquals(
                    "broker,controller",
                    b.get("environment").get("KAFKA_PROCESS_ROLES").asText(),
                    broker);
            assertEquals(
                    "3",
                    b.get("environment").get("KAFKA_DEFAULT_REPLICATION_FACTOR").asText());
            assertEquals(
                    "2", b.get("environment").get("KAFKA_MIN_INSYNC_REPLICAS").asText());
            assertEquals(
                    "-1", b.get("environment").get("KAFKA_LOG_RETENTION_MS").asText());
        }
        Set<String> nodeIds = new HashSet<>();
        for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
            nodeIds.add(
                    services.get(broker).get("environment").get("KAFKA_NODE_ID").asText());
        }
        assertEquals(3, nodeIds.size(), "three distinct KRaft nodes");
        assertTrue(services.get("postgres").get("image").asText().startsWith("postgres:18"));
        assertTrue(services.get("postgres").get("command").toString().contains("shared_buffers"), "tuned PostgreSQL");
        String topics = services.get("topics").get("command").toString();
        for (String setting :
                List.of("--replication-factor 3", "min.insync.replicas=2", "retention.ms=-1", "compression.type=lz4")) {
            assertTrue(topics.contains(setting), "topic setting " + setting);
        }
        int projectors = 0;
        int apis = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = services.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode s = e.getValue();
            String command = s.path("command").toString();
            Set<String> env = s.has("environment") ? keys(s.get("environment")) : Set.of();
            assertKnownSettings(env, "compose service " + e.getKey());
            if (command.contains("org.electorallog.projector.ProjectorMain")) {
                projectors++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                assertRequired(env, "projector", e.getKey());
                assertEquals(
                        "9400",
                        s.get("environment").get("ELECTORAL_LOG_METRICS_PORT").asText());
            } else if (command.contains("org.electorallog.query.QueryApiMain")) {
                apis++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                assertRequired(env, "query-api", e.getKey());
                assertTrue(s.get("ports")
                        .get(0)
                        .asText()
                        .endsWith(":"
                                + s.get("environment")
                                        .get("ELECTORAL_LOG_HTTP_PORT")
                                        .asText()));
            }
        }
        assertEquals(2, projectors);
        assertEquals(2, apis);
        assertTrue(services.get("prometheus").get("image").asText().startsWith("prom/prometheus"));
        String prometheus = Files.readString(DEPLOY.resolve("prometheus.yml"));
        assertTrue(prometheus.contains("projector-1:9400") && prometheus.contains("query-api-2:8080"), prometheus);
    }

    @Test
    void kubernetesManifestsDeployBothProcessesWithProbesAndStrimziTopics() throws Exception {
        Map<String, JsonNode> byKindAndName = new HashMap<>();
        try (var files = Files.list(DEPLOY.resolve("k8s"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                for (JsonNode doc : documents(f)) {
                    assertTrue(
                            doc.has("apiVersion")
                                    && doc.has("kind")
                                    && doc.path("metadata").has("name"),
                            f + ": " + doc);
                    byKindAndName.put(
                            doc.get("kind").asText() + "/"
                                    + doc.get("metadata").get("name").asText(),
                            doc);
                }
            }
        }
        JsonNode config = byKindAndName.get("ConfigMap/electoral-log-config");
        assertKnownSettings(keys(config.get("data")), "the ConfigMap");
        for (String name : List.of("electoral-log-projector", "electoral-log-query-api")) {
            JsonNode d = byKindAndName.get("Deployment/" + name);
            assertTrue(d.get("spec").get("replicas").asInt() >= 2, name);
            JsonNode c =
                    d.get("spec").get("template").get("spec").get("containers").get(0);
            assertEquals("electoral-log:0.1.0", c.get("image").asText());
            Set<String> env = new HashSet<>(keys(config.get("data")));
            c.get("env").forEach(e -> env.add(e.get("name").asText()));
            assertKnownSettings(env, name);
            String main = c.get("args").get(0).asText();
            assertRequired(env, main.contains("Projector") ? "projector" : "query-api", name);
            int port = c.get("ports").get(0).get("containerPort").asInt();
            String portSetting = main.contains("Projector") ? "ELECTORAL_LOG_METRICS_PORT" : "ELECTORAL_LOG_HTTP_PORT";
            c.get("env").forEach(e -> {
                if (e.get("name").asText().equals(portSetting)) {
                    assertEquals(String.valueOf(port), e.get("value").asText(), name + " port");
                }
            });
            assertEquals(
                    "/health/live",
                    c.get("livenessProbe").get("httpGet").get("path").asText());
            assertEquals(
                    "/health/ready",
                    c.get("readinessProbe").get("httpGet").get("path").asText());
            assertTrue(byKindAndName.containsKey("Service/" + name), "a Service for " + name);
        }
        for (String topic : List.of("electoral-log.events", "electoral-log.dead-letters")) {
            JsonNode t = byKindAndName.get("KafkaTopic/" + topic);
            assertEquals(3, t.get("spec").get("replicas").asInt());
            assertEquals(
                    2, t.get("spec").get("config").get("min.insync.replicas").asInt());
            assertEquals(-1, t.get("spec").get("config").get("retention.ms").asLong());
            assertFalse(
                    t.get("spec").get("config").get("compression.type").asText().isEmpty());
        }
        JsonNode producer = byKindAndName.get("KafkaUser/voting-service");
        assertEquals(
                1,
                producer.get("spec").get("authorization").get("acls").size(),
                "a producer only writes the events topic");
        assertEquals(
                "scram-sha-512",
                producer.get("spec").get("authentication").get("type").asText());
    }

    @Test
    void theDockerfileRunsEitherProcess() throws Exception {
        String docker = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertTrue(docker.contains("FROM eclipse-temurin:17-jre"));
        assertTrue(docker.contains("org.electorallog.query.QueryApiMain")
                && docker.contains("org.electorallog.projector.ProjectorMain"));
        assertTrue(docker.contains("USER 10001"), "not root");
        for (String line :
                docker.lines().filter(l -> l.contains("ELECTORAL_LOG_")).toList()) {
            for (String word : line.split("[^A-Z_]+")) {
                if (word.startsWith("ELECTORAL_LOG_")) {
                    assertTrue(Setting.byName(word).isPresent(), word + " in the Dockerfile");
                }
            }
        }
    }
}
