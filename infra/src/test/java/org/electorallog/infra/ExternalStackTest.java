package org.electorallog.infra;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalStackTest {
    private static final Path WORK = Path.of("target/stack");

    @Test
    void unreachableKafkaNamesTheVariableAndTheAddress() {
        StackSettings s = StackSettings.from(
                Map.of(
                        StackSettings.KAFKA_BOOTSTRAP, "127.0.0.1:1",
                        StackSettings.JDBC_URL, "jdbc:postgresql://127.0.0.1:1/postgres"),
                WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().contains(StackSettings.KAFKA_BOOTSTRAP), e.getMessage());
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }

    @Test
    void unreachablePostgresNamesTheVariableAndTheAddress() {
        Stack shared = SharedStack.get();
        StackSettings s = StackSettings.from(
                Map.of(
                        StackSettings.KAFKA_BOOTSTRAP,
                        shared.kafkaBootstrap(),
                        StackSettings.JDBC_URL,
                        "jdbc:postgresql://127.0.0.1:1/electoral"),
                WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().contains(StackSettings.JDBC_URL), e.getMessage());
        assertTrue(e.getMessage().contains("jdbc:postgresql://127.0.0.1:1/electoral"), e.getMessage());
    }

    @Test
    void aMissingHalfOfTheExternalPairIsNamed() {
        StackSettings s = StackSettings.from(
                Map.of(StackSettings.MODE, "external", StackSettings.KAFKA_BOOTSTRAP, "127.0.0.1:1"), WORK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stacks.start(s));
        assertTrue(e.getMessage().startsWith(StackSettings.JDBC_URL + " is not set"), e.getMessage());
    }

    @Test
    void aBadModeIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> StackSettings.from(Map.of(StackSettings.MODE, "docker"), WORK));
        assertTrue(e.getMessage().contains(StackSettings.MODE));
    }

    @Test
    void externalStackWorksAgainstRealServers() {
        Stack shared = SharedStack.get();
        StackSettings s = StackSettings.from(
                Map.of(
                        StackSettings.KAFKA_BOOTSTRAP, shared.kafkaBootstrap(),
                        StackSettings.JDBC_URL, shared.database().jdbcUrl(),
                        StackSettings.DB_USER, shared.database().user()),
                WORK);
        try (Stack ext = Stacks.start(s)) {
            assertTrue(ext.describe().startsWith("external"));
        }
    }
}
