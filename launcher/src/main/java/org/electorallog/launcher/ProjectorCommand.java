package org.electorallog.launcher;

import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.projector.ProjectorMain;
import picocli.CommandLine.Command;

/**
 * {@code electoral-log projector}: one projector instance from the shared configuration (the
 * environment, {@code ELECTORAL_LOG_CONFIG_FILE}, {@code _FILE} secrets; docs/configuration.md),
 * exactly as the image runs it, with its /metrics and /health, until SIGTERM or Ctrl-C.
 */
@Command(
        name = "projector",
        description = "Run a projector instance from the configuration (docs/configuration.md) until stopped; "
                + "exit 2 on a missing or bad setting.")
public final class ProjectorCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
        return ProjectorMain.run(Configuration.fromEnvironment());
    }
}
