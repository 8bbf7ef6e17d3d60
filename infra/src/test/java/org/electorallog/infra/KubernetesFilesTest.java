package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issues 9 and 43: the Kubernetes manifests deploy both processes with probes, and Strimzi topics. */
class KubernetesFilesTest {
    @Test
    void kubernetesManifestsDeployBothProcessesWithProbesAndStrimziTopics() throws Exception {
        Map<String, JsonNode> byKindAndName = new HashMap<>();
        try (var files = Files.list(DeploymentFiles.DEPLOY.resolve("k8s"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                for (JsonNode doc : DeploymentFiles.documents(f)) {
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
        DeploymentFiles.assertKnownSettings(DeploymentFiles.keys(config.get("data")), "the ConfigMap");
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
            DeploymentFiles.assertKnownSettings(env, name);
            String main = c.get("args").get(0).asText();
            assertTrue(main.equals("projector") || main.equals("api"), name + " runs " + main);
            boolean projector = main.equals("projector");
            DeploymentFiles.assertRequired(env, projector ? "projector" : "query-api", name);
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
}
