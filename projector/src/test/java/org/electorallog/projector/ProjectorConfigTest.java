package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.electorallog.config.Setting;
import org.electorallog.core.NoteSigner;
import org.junit.jupiter.api.Test;

/** Settings from the environment: a missing or invalid one names itself; a missing topic stops the start. */
class ProjectorConfigTest {
    static Map<String, String> valid() {
        Map<String, String> env = new HashMap<>();
        env.put(Setting.KAFKA_BOOTSTRAP.env, "127.0.0.1:9092");
        env.put(Setting.JDBC_URL.env, "jdbc:postgresql://127.0.0.1/db");
        env.put(Setting.SIGNING_KEY.env, NoteSigner.generate("log.example").signerKey());
        return env;
    }

    static String error(Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> ProjectorConfig.fromEnvironment(env))
                .getMessage();
    }

    @Test
    void printedSettingsShowNoSecret() {
        Map<String, String> env = valid();
        env.put(Setting.DB_PASSWORD.env, "db-secret-1234");
        ProjectorSettings s = ProjectorConfig.fromEnvironment(env);
        String shown = s.toString();
        assertTrue(shown.contains("jdbc:postgresql://127.0.0.1/db"), shown);
        assertFalse(shown.contains("db-secret-1234"), shown);
        assertFalse(shown.contains(env.get(Setting.SIGNING_KEY.env)), shown);
        assertFalse(shown.contains(s.signer().signerKey()), shown);
    }

    @Test
    void missingAndInvalidSettingsAreNamed() {
        ProjectorSettings s = ProjectorConfig.fromEnvironment(valid());
        assertEquals(5000, s.batchMaxRecords());
        assertEquals(Duration.ofSeconds(1), s.checkpointEvery());
        assertEquals(org.electorallog.config.Setting.WARM_UP_STATEMENTS.defaultNumber(), s.warmUpStatements());
        for (String required :
                new String[] {Setting.KAFKA_BOOTSTRAP.env, Setting.JDBC_URL.env, Setting.SIGNING_KEY.env}) {
            Map<String, String> env = valid();
            env.remove(required);
            assertTrue(error(env).contains(required), required);
        }
        Map<String, String> env = valid();
        env.put(Setting.BATCH_MAX_RECORDS.env, "lots");
        assertTrue(error(env).contains(Setting.BATCH_MAX_RECORDS.env));
        env = valid();
        env.put(Setting.CHECKPOINT_EVERY_MS.env, "-5");
        assertTrue(error(env).contains(Setting.CHECKPOINT_EVERY_MS.env));
        env = valid();
        env.put(Setting.WARM_UP_STATEMENTS.env, "-1");
        assertTrue(error(env).contains(Setting.WARM_UP_STATEMENTS.env));
        env = valid();
        env.put(Setting.WARM_UP_STATEMENTS.env, "0");
        assertEquals(0, ProjectorConfig.fromEnvironment(env).warmUpStatements());
        env = valid();
        env.put(Setting.SIGNATURE_POLICY.env, "SOMETIMES");
        assertTrue(error(env).contains(Setting.SIGNATURE_POLICY.env));
        env = valid();
        env.put(Setting.SIGNING_KEY.env, "PRIVATE+KEY+secret-material-here");
        String message = error(env);
        assertTrue(message.contains(Setting.SIGNING_KEY.env), message);
        assertFalse(message.contains("secret-material-here"), "the key itself is never echoed: " + message);
    }

    @Test
    void aMissingTopicStopsTheStartNamingIt() {
        ProjectorHarness h = new ProjectorHarness("missing", 1);
        ProjectorSettings settings = ProjectorSettings.defaults(
                        h.settings.bootstrap(), h.settings.login(), h.settings.stateDir(), h.settings.signer())
                .withTopics("no-such-topic", h.deadLetters)
                .withApplicationId("missing-app")
                .withBatch(100, Duration.ofMillis(50))
                .withOriginPrefix("x/");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Projector.start(settings));
        assertTrue(e.getMessage().contains("topic no-such-topic does not exist"), e.getMessage());
    }
}
