package org.electorallog.infra;

import java.nio.file.Path;
import java.util.Map;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;

/**
 * How a stack is chosen, from these settings ({@link Setting}, docs/configuration.md):
 *
 * <table>
 *   <tr><th>variable</th><th>meaning</th></tr>
 *   <tr><td>{@code ELECTORAL_LOG_STACK}</td><td>{@code auto} (default), {@code embedded}, {@code containers} or {@code external}</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_KAFKA_BOOTSTRAP}</td><td>external Kafka bootstrap servers; setting it (with the JDBC URL) selects the external stack</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_JDBC_URL}</td><td>external PostgreSQL JDBC URL</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_DB_USER}, {@code ELECTORAL_LOG_DB_PASSWORD} (or its {@code _FILE})</td><td>its credentials</td></tr>
 *   <tr><td>{@code ELECTORAL_LOG_WORK_DIR}</td><td>where embedded data goes (default {@code target/stack})</td></tr>
 * </table>
 *
 * <p>{@code auto} picks external when either external variable is set, else containers when a
 * Docker engine answers, else embedded.
 */
public record StackSettings(
        String mode, String kafkaBootstrap, String jdbcUrl, String dbUser, String dbPassword, Path workDir) {
    /** Reads the settings from an environment map (normally {@code System.getenv()}) and the file it may name. */
    public static StackSettings from(Map<String, String> env, Path defaultWorkDir) {
        Configuration conf = Configuration.load(env);
        return new StackSettings(
                conf.oneOf(Setting.STACK),
                conf.get(Setting.KAFKA_BOOTSTRAP),
                conf.get(Setting.JDBC_URL),
                conf.get(Setting.DB_USER),
                conf.secret(Setting.DB_PASSWORD),
                conf.isSet(Setting.WORK_DIR) ? conf.path(Setting.WORK_DIR) : defaultWorkDir);
    }
}
