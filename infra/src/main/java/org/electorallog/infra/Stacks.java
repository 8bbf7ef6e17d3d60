package org.electorallog.infra;

import java.nio.file.Path;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the stack that {@link StackSettings} selects. */
public final class Stacks {
    private static final Logger LOG = LoggerFactory.getLogger(Stacks.class);
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    private Stacks() {}

    /** Starts the stack the process environment selects; embedded data goes under {@code defaultWorkDir}. */
    public static Stack start(Path defaultWorkDir) {
        return start(StackSettings.from(System.getenv(), defaultWorkDir));
    }

    public static Stack start(StackSettings s) {
        String mode = s.mode();
        if (mode.equals("auto")) {
            if (s.kafkaBootstrap() != null || s.jdbcUrl() != null) {
                mode = "external";
            } else if (ContainerStack.dockerAvailable()) {
                mode = "containers";
            } else {
                mode = "embedded";
            }
        }
        LOG.info("starting the {} stack", mode);
        return switch (mode) {
            case "external" -> {
                if (s.kafkaBootstrap() == null) {
                    throw new IllegalStateException(Setting.KAFKA_BOOTSTRAP.env
                            + " is not set: the external stack needs both it and " + Setting.JDBC_URL.env);
                }
                if (s.jdbcUrl() == null) {
                    throw new IllegalStateException(Setting.JDBC_URL.env
                            + " is not set: the external stack needs both it and " + Setting.KAFKA_BOOTSTRAP.env);
                }
                yield ExternalStack.connect(
                        s.kafkaBootstrap(),
                        new DatabaseLogin(s.jdbcUrl(), s.dbUser(), s.dbPassword()),
                        CONNECT_TIMEOUT_SECONDS);
            }
            case "containers" -> ContainerStack.start();
            default -> EmbeddedStack.start(s.workDir(), true);
        };
    }

    /** For the external stack: the variables and what they name. */
    public static Map<String, String> externalVariables() {
        return ExternalStack.variables();
    }
}
