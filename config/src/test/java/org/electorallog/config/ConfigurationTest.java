package org.electorallog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shared configuration: file and environment, unknown names, secrets, typed values. */
class ConfigurationTest {
    static String error(Map<String, String> env, java.util.function.Consumer<Configuration> use) {
        return assertThrows(IllegalArgumentException.class, () -> use.accept(Configuration.load(env)))
                .getMessage();
    }

    @Test
    void theEnvironmentOverridesTheFileAndUnknownNamesFailNamingThemselves() throws Exception {
        Path dir = Files.createDirectories(Path.of("target/config-test"));
        Path file = dir.resolve("log.properties");
        Files.writeString(file, "ELECTORAL_LOG_HTTP_PORT=9000\nELECTORAL_LOG_TOPIC=from-file\n");
        Configuration c = Configuration.load(
                Map.of("ELECTORAL_LOG_CONFIG_FILE", file.toString(), "ELECTORAL_LOG_HTTP_PORT", "9100"));
        assertEquals(9100, c.port(Setting.HTTP_PORT));
        assertEquals("from-file", c.get(Setting.TOPIC));
        assertEquals("electoral-log.dead-letters", c.get(Setting.DEAD_LETTER_TOPIC), "defaults fill the rest");
        assertTrue(error(Map.of("ELECTORAL_LOG_HTTP_PROT", "1"), x -> {}).contains("ELECTORAL_LOG_HTTP_PROT"));
        Files.writeString(file, "ELECTORAL_LOG_TOPICS=x\n");
        String inFile = error(Map.of("ELECTORAL_LOG_CONFIG_FILE", file.toString()), x -> {});
        assertTrue(inFile.contains("ELECTORAL_LOG_TOPICS") && inFile.contains(file.toString()), inFile);
        assertTrue(error(Map.of("ELECTORAL_LOG_CONFIG_FILE", "/no/such/file"), x -> {})
                .contains("ELECTORAL_LOG_CONFIG_FILE"));
        // other programs' variables are not ours to judge
        assertEquals(
                "8080",
                Configuration.load(Map.of("PATH", "/bin", "KAFKA_HEAP_OPTS", "-Xmx1g"))
                        .get(Setting.HTTP_PORT));
    }

    @Test
    void invalidValuesNameTheSettingAndWhatItTakes() {
        assertTrue(error(Map.of("ELECTORAL_LOG_HTTP_PORT", "99999"), c -> c.port(Setting.HTTP_PORT))
                .contains("ELECTORAL_LOG_HTTP_PORT"));
        assertTrue(error(Map.of("ELECTORAL_LOG_HTTP_PORT", "eighty"), c -> c.port(Setting.HTTP_PORT))
                .contains("whole number"));
        assertTrue(error(Map.of(), c -> c.required(Setting.JDBC_URL)).contains("ELECTORAL_LOG_JDBC_URL is required"));
        assertTrue(error(Map.of("ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL", "TELEPATHY"), Configuration::kafkaSecurity)
                .contains("ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL"));
        assertTrue(error(Map.of("ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL", "SASL_SSL"), Configuration::kafkaSecurity)
                .contains("ELECTORAL_LOG_KAFKA_USERNAME"));
        assertTrue(error(
                        Map.of(
                                "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
                                "SASL_PLAINTEXT",
                                "ELECTORAL_LOG_KAFKA_USERNAME",
                                "p"),
                        Configuration::kafkaSecurity)
                .contains("ELECTORAL_LOG_KAFKA_PASSWORD"));
    }

    @Test
    void secretsComeFromTheVariableOrAFileAndAreNeverPrinted() throws Exception {
        Path file = Files.createDirectories(Path.of("target/config-test")).resolve("token");
        Files.writeString(file, "token-from-a-file-0123\n");
        Configuration fromFile = Configuration.load(Map.of("ELECTORAL_LOG_ADMIN_TOKEN_FILE", file.toString()));
        assertEquals("token-from-a-file-0123", fromFile.secret(Setting.ADMIN_TOKEN));
        Map<String, String> both = new HashMap<>(Map.of(
                "ELECTORAL_LOG_ADMIN_TOKEN_FILE",
                file.toString(),
                "ELECTORAL_LOG_ADMIN_TOKEN",
                "direct-token-0123456"));
        String m = error(both, c -> c.secret(Setting.ADMIN_TOKEN));
        assertTrue(m.contains("not both") && !m.contains("direct-token"), m);
        String cursor =
                error(Map.of("ELECTORAL_LOG_CURSOR_KEY", "not base64 !!"), c -> c.base64Secret(Setting.CURSOR_KEY));
        assertTrue(cursor.contains("ELECTORAL_LOG_CURSOR_KEY") && !cursor.contains("!!"), cursor);
        Configuration c =
                Configuration.load(Map.of("ELECTORAL_LOG_DB_PASSWORD", "hunter2-database", "ELECTORAL_LOG_TOPIC", "t"));
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertTrue(c.toString().contains("ELECTORAL_LOG_TOPIC=t"), c.toString());
        assertTrue(Setting.SIGNING_KEY.secret() && Setting.KAFKA_PASSWORD.secret() && !Setting.TOPIC.secret());
        Map<String, Object> sasl = Configuration.load(Map.of(
                        "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
                        "sasl_plaintext",
                        "ELECTORAL_LOG_KAFKA_USERNAME",
                        "producer-1",
                        "ELECTORAL_LOG_KAFKA_PASSWORD",
                        "pa\"ss"))
                .kafkaSecurity();
        assertEquals("SCRAM-SHA-512", sasl.get("sasl.mechanism"));
        assertTrue(((String) sasl.get("sasl.jaas.config")).contains("password=\"pa\\\"ss\""), "quotes are escaped");
        assertNull(Configuration.load(Map.of()).secret(Setting.ADMIN_TOKEN));
        assertEquals(
                List.of("a", "b"),
                Configuration.load(Map.of("ELECTORAL_LOG_CORS_ORIGINS", " a, ,b "))
                        .list(Setting.CORS_ORIGINS));
    }

    @Test
    void everySecretIsFlaggedAndHasAFileVariant() throws Exception {
        for (Setting s : Setting.values()) {
            assertEquals(Setting.PREFIX + s.name(), s.env, "the variable is derived from the name");
            if (s.secret()) {
                assertEquals(Optional.of(s), Setting.ofVariable(s.env + "_FILE"), "the file twin of " + s.env);
            } else if (s != Setting.CONFIG_FILE) {
                assertEquals(Optional.empty(), Setting.ofVariable(s.env + "_FILE"), s.env + " is no secret");
            }
        }
        assertTrue(Setting.KAFKA_TRUSTSTORE_PASSWORD.secret(), "the truststore password is a secret");
        Path file = Files.createTempFile("truststore-password", ".txt");
        Files.writeString(file, "trust-me\n");
        Configuration c = Configuration.load(Map.of(
                "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
                "SSL",
                "ELECTORAL_LOG_KAFKA_TRUSTSTORE",
                "/etc/truststore.p12",
                "ELECTORAL_LOG_KAFKA_TRUSTSTORE_PASSWORD_FILE",
                file.toString()));
        assertEquals("trust-me", c.kafkaSecurity().get("ssl.truststore.password"));
        Configuration direct = Configuration.load(Map.of(
                "ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL",
                "SSL",
                "ELECTORAL_LOG_KAFKA_TRUSTSTORE",
                "/etc/truststore.p12",
                "ELECTORAL_LOG_KAFKA_TRUSTSTORE_PASSWORD",
                "trust-me"));
        assertTrue(!direct.toString().contains("trust-me"), "masked: " + direct);
    }

    @Test
    void docsConfigurationMdIsTheCatalogue() throws Exception {
        String doc = Files.readString(Path.of("../docs/configuration.md"));
        String table = doc.lines()
                .filter(l -> l.startsWith("| "))
                .filter(l -> l.startsWith("| `ELECTORAL_LOG_") || l.startsWith("| setting |"))
                .collect(java.util.stream.Collectors.joining("\n"));
        String expected = SettingsTable.markdown()
                .lines()
                .filter(l -> !l.startsWith("|---"))
                .collect(java.util.stream.Collectors.joining("\n"));
        assertEquals(
                expected,
                table,
                "docs/configuration.md's table differs from the catalogue; print it with "
                        + "java -cp config/target/classes org.electorallog.config.SettingsTable");
        assertTrue(doc.contains(SettingsTable.markdown()), "the table is one block, its rule line included");
    }

    @Test
    void everyValueIsCheckedAgainstItsTypeWhenLoaded() {
        assertTrue(error(Map.of("ELECTORAL_LOG_BATCH_MAX_RECORDS", "0"), c -> {})
                .contains("ELECTORAL_LOG_BATCH_MAX_RECORDS must be between 1 and 1000000"));
        assertTrue(
                error(Map.of("ELECTORAL_LOG_STACK", "cloud"), c -> {}).contains("ELECTORAL_LOG_STACK must be one of"));
        assertEquals(
                "embedded",
                Configuration.load(Map.of("ELECTORAL_LOG_STACK", "EMBEDDED")).oneOf(Setting.STACK));
        assertTrue(error(Map.of("ELECTORAL_LOG_SIGNING_KEY_FILE_FILE", "x"), c -> {})
                .contains("is not a setting"));
        assertTrue(error(Map.of("ELECTORAL_LOG_HTTP_HOST_FILE", "x"), c -> {}).contains("is not a setting"));
        assertThrows(
                IllegalStateException.class, () -> Configuration.load(Map.of()).number(Setting.HTTP_HOST));
    }
}
