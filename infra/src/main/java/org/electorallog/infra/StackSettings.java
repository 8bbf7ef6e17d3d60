package org.electorallog.infra;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a stack is chosen, from environment variables:
 *
 * <table>
 *   <tr><th>variable</th><th>meaning</th></tr>
 *   <tr><td>{@code ELECTORAL_LOG_STACK}</td><td>{@code auto} (default), {@code embedded}, {@code containers} or {@code external}</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_KAFKA_BOOTSTRAP}</td><td>external Kafka bootstrap servers; setting it (with the JDBC URL) selects the external stack</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_JDBC_URL}</td><td>external PostgreSQL JDBC URL</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_DB_USER}, {@code ELECTORAL_LOG_DB_PASSWORD}</td><td>its credentials</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_WORK_DIR}</td><td>where embedded data goes (default {@code target/stack})</td></tr>
 * </table>
 *
 * <p>{@code auto} picks external when either external variable is set, else containers when a
 * Docker engine answers, else embedded.
 */
public record StackSettings(
        String mode, String kafkaBootstrap, String jdbcUrl, String dbUser, String dbPassword, Path workDir) {
    public static final String MODE = "ELECTORAL_LOG_STACK";
    public static final String KAFKA_BOOTSTRAP = "ELECTORAL_LOG_KAFKA_BOOTSTRAP";
    public static final String JDBC_URL = "ELECTORAL_LOG_JDBC_URL";
    public static final String DB_USER = "ELECTORAL_LOG_DB_USER";
    public static final String DB_PASSWORD = "ELECTORAL_LOG_DB_PASSWORD";
    public static final String WORK_DIR = "ELECTORAL_LOG_WORK_DIR";

    /** Reads the settings from an environment map (normally {@code System.getenv()}). */
    public static StackSettings from(Map<String, String> env, Path defaultWorkDir) {
        String mode = env.getOrDefault(MODE, "auto").strip().toLowerCase(java.util.Locale.ROOT);
        if (!mode.matches("auto|embedded|containers|external")) {
            throw new IllegalArgumentException(
                    MODE + " must be auto, embedded, containers or external, got '" + env.get(MODE) + "'");
        }
        String wd = env.get(WORK_DIR);
        return new StackSettings(
                mode,
                blankToNull(env.get(KAFKA_BOOTSTRAP)),
                blankToNull(env.get(JDBC_URL)),
                env.getOrDefault(DB_USER, "postgres"),
                env.getOrDefault(DB_PASSWORD, ""),
                wd == null || wd.isBlank() ? defaultWorkDir : Path.of(wd));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
