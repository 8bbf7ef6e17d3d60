package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.electorallog.config.Setting;

/** What the deployment files' tests share: the folder, YAML documents as JSON, the settings' checks. */
final class DeploymentFiles {
    private DeploymentFiles() {}

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
}
