package org.electorallog.infra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;

/**
 * Servers named by environment variables (see {@link StackSettings}); nothing is started or stopped.
 * Both are contacted at start, and an unreachable one is an error that names the variable and the
 * address tried.
 */
public final class ExternalStack implements Stack {
    private final String kafka;
    private final DatabaseLogin db;

    private ExternalStack(String kafka, DatabaseLogin db) {
        this.kafka = kafka;
        this.db = db;
    }

    /** Checks both servers answer within {@code timeoutSeconds}, then returns the stack. */
    public static ExternalStack connect(String kafkaBootstrap, DatabaseLogin db, int timeoutSeconds) {
        checkKafka(kafkaBootstrap, timeoutSeconds);
        checkPostgres(db, timeoutSeconds);
        return new ExternalStack(kafkaBootstrap, db);
    }

    static void checkKafka(String bootstrap, int timeoutSeconds) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(timeoutSeconds * 1000));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeoutSeconds * 1000));
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "2000");
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "2000");
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().clusterId().get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(Setting.KAFKA_BOOTSTRAP.env, bootstrap, "interrupted");
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw unreachable(
                    Setting.KAFKA_BOOTSTRAP.env,
                    bootstrap,
                    e instanceof TimeoutException ? "no answer within " + timeoutSeconds + " s" : rootMessage(e));
        }
    }

    static void checkPostgres(DatabaseLogin db, int timeoutSeconds) {
        Properties p = new Properties();
        if (db.user() != null) {
            p.put("user", db.user());
        }
        if (db.password() != null) {
            p.put("password", db.password());
        }
        p.put("connectTimeout", String.valueOf(timeoutSeconds));
        p.put("loginTimeout", String.valueOf(timeoutSeconds));
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), p)) {
            if (!c.isValid(timeoutSeconds)) {
                throw unreachable(
                        Setting.JDBC_URL.env,
                        db.jdbcUrl(),
                        "the connection did not answer within " + timeoutSeconds + " s");
            }
        } catch (SQLException e) {
            throw unreachable(Setting.JDBC_URL.env, db.jdbcUrl(), rootMessage(e));
        }
    }

    private static IllegalStateException unreachable(String variable, String address, String why) {
        return new IllegalStateException(
                "cannot reach the server named by " + variable + " at " + address + ": " + why);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    @Override
    public String kafkaBootstrap() {
        return kafka;
    }

    @Override
    public DatabaseLogin database() {
        return db;
    }

    @Override
    public String describe() {
        return "external (Kafka at " + kafka + ", PostgreSQL at " + db.jdbcUrl() + ")";
    }

    @Override
    public void close() {
        // external servers are not ours to stop
    }

    /** For tests: the variables this stack reads. */
    static Map<String, String> variables() {
        return Map.of(
                Setting.KAFKA_BOOTSTRAP.env, "Kafka bootstrap servers", Setting.JDBC_URL.env, "PostgreSQL JDBC URL");
    }
}
