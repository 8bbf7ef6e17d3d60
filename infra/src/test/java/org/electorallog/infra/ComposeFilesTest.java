package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issues 9 and 43: compose runs the reference topology (docs/operations.md), its brokers keep their
 * logs, and every file and secret it names exists or is made by the secrets script.
 */
class ComposeFilesTest {
    @Test
    void composeRunsTheReferenceTopology() throws Exception {
        JsonNode compose = DeploymentFiles.documents(DeploymentFiles.DEPLOY.resolve("compose.yaml"))
                .get(0);
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
            Set<String> env = s.has("environment") ? DeploymentFiles.keys(s.get("environment")) : Set.of();
            DeploymentFiles.assertKnownSettings(env, "compose service " + e.getKey());
            if (command.equals("[\"projector\"]")) {
                projectors++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                DeploymentFiles.assertRequired(env, "projector", e.getKey());
                assertEquals(
                        "9400",
                        s.get("environment").get("ELECTORAL_LOG_METRICS_PORT").asText());
            } else if (command.equals("[\"api\"]")) {
                apis++;
                assertEquals("electoral-log:0.1.0", s.get("image").asText());
                DeploymentFiles.assertRequired(env, "query-api", e.getKey());
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
        String haproxy = Files.readString(DeploymentFiles.DEPLOY.resolve("haproxy.cfg"));
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
        // issue 61: the witness never makes its own state on start (a lost volume would cosign a
        // rollback); a one-shot service of the setup profile makes it once
        assertFalse(services.get("witness").get("command").toString().contains("--init"), "no --init on start");
        assertEquals(
                "[\"witness\",\"init\",\"--state\",\"/var/lib/witness\"]",
                services.get("witness-init").get("command").toString());
        assertEquals("[\"setup\"]", services.get("witness-init").get("profiles").toString());
        assertTrue(services.get("prometheus").get("image").asText().startsWith("prom/prometheus"));
        String prometheus = Files.readString(DeploymentFiles.DEPLOY.resolve("prometheus.yml"));
        assertTrue(prometheus.contains("projector-1:9400"), prometheus);
        // the query API's /metrics is on its admin port, which the host does not get
        for (String api : List.of("query-api-1", "query-api-2")) {
            JsonNode e = services.get(api).get("environment");
            String admin = e.get("ELECTORAL_LOG_ADMIN_PORT").asText();
            assertTrue(prometheus.contains(api + ":" + admin), prometheus);
            assertFalse(services.get(api).path("ports").toString().contains(":" + admin + "\""), api);
            // beyond loopback, the admin port's /metrics needs the admin token (issue 61): Prometheus has it
            assertEquals("0.0.0.0", e.get("ELECTORAL_LOG_ADMIN_HOST").asText(), api);
        }
        assertTrue(prometheus.contains("credentials_file: /run/secrets/admin-token"), prometheus);
        assertTrue(services.get("prometheus").get("secrets").toString().contains("admin-token"));
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
        JsonNode services = DeploymentFiles.documents(DeploymentFiles.DEPLOY.resolve("compose.yaml"))
                .get(0)
                .get("services");
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
        JsonNode compose = DeploymentFiles.documents(DeploymentFiles.DEPLOY.resolve("compose.yaml"))
                .get(0);
        String script = Files.readString(DeploymentFiles.DEPLOY.resolve("make-secrets.sh"));
        Set<String> made = new HashSet<>();
        java.util.regex.Matcher list =
                java.util.regex.Pattern.compile("for name in ([a-z -]+); do").matcher(script);
        assertTrue(list.find(), "make-secrets.sh lists the secrets it makes");
        made.addAll(List.of(list.group(1).trim().split(" +")));
        for (String key : List.of("signing-key", "witness-key", "key-encryption-key")) {
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
                    assertTrue(Files.exists(DeploymentFiles.DEPLOY.resolve(source)), source);
                }
            }
            if (s.has("build")) {
                Path context = DeploymentFiles.DEPLOY
                        .resolve(s.get("build").get("context").asText())
                        .normalize();
                assertTrue(Files.exists(
                        context.resolve(s.get("build").get("dockerfile").asText())));
                String ignore = Files.readString(context.resolve(".dockerignore"));
                assertTrue(ignore.contains("**/target/") && ignore.contains("infra/deploy/secrets/"), ignore);
            }
        }
        for (String line : Files.readAllLines(DeploymentFiles.DEPLOY.resolve("Dockerfile"))) {
            if (line.startsWith("COPY infra/")) {
                assertTrue(
                        Files.exists(DeploymentFiles.DEPLOY
                                .resolve("../..")
                                .resolve(line.split(" ")[1])
                                .normalize()),
                        line);
            }
        }
    }
}
