package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.electorallog.config.Setting;
import org.junit.jupiter.api.Test;

class ExternalStackTest {
    private static final Path WORK = Path.of("target/stack");

    @Test
    void unreachableKafkaNamesTheVariableAndTheAddress() {
        StackSettings s = StackSettings.from(
                Map.of(
                        Setting.KAFKA_BOOTSTRAP.env, "127.0.0.1:1",
                        Setting.JDBC_URL.env, "jdbc:postgresql://127.0.0.1:1/postgres"),
                WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().contains(Setting.KAFKA_BOOTSTRAP.env), e.getMessage());
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }

    @Test
    void unreachablePostgresNamesTheVariableAndTheAddress() {
        Stack shared = SharedStack.get();
        StackSettings s = StackSettings.from(
                Map.of(
                        Setting.KAFKA_BOOTSTRAP.env,
                        shared.kafkaBootstrap(),
                        Setting.JDBC_URL.env,
                        "jdbc:postgresql://127.0.0.1:1/electoral"),
                WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().contains(Setting.JDBC_URL.env), e.getMessage());
        assertTrue(e.getMessage().contains("jdbc:postgresql://127.0.0.1:1/electoral"), e.getMessage());
    }

    @Test
    void aMissingHalfOfTheExternalPairIsNamed() {
        StackSettings s = StackSettings.from(
                Map.of(Setting.STACK.env, "external", Setting.KAFKA_BOOTSTRAP.env, "127.0.0.1:1"), WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().startsWith(Setting.JDBC_URL.env + " is not set"), e.getMessage());
    }

    @Test
    void aBadModeIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> StackSettings.from(Map.of(Setting.STACK.env, "docker"), WORK));
        assertTrue(e.getMessage().contains(Setting.STACK.env));
    }

    @Test
    void externalStackWorksAgainstRealServers() {
        Stack shared = SharedStack.get();
        StackSettings s = StackSettings.from(
                Map.of(
                        Setting.KAFKA_BOOTSTRAP.env, shared.kafkaBootstrap(),
                        Setting.JDBC_URL.env, shared.database().jdbcUrl(),
                        Setting.DB_USER.env, shared.database().user()),
                WORK);
        try (Stack ext = Stacks.start(s)) {
            assertTrue(ext.describe().startsWith("external"));
        }
    }
}
