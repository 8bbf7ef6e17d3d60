package org.electorallog.launcher;

import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.query.QueryApiMain;
import picocli.CommandLine.Command;

/**
 * {@code electoral-log api}: one query API instance from the shared configuration (the
 * environment, {@code ELECTORAL_LOG_CONFIG_FILE}, {@code _FILE} secrets; docs/configuration.md),
 * exactly as the image runs it, until SIGTERM or Ctrl-C.
 */
@Command(
        name = "api",
        description = "Run a query API instance from the configuration (docs/configuration.md) until stopped; "
                + "exit 2 on a missing or bad setting.")
public final class ApiCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
        return QueryApiMain.run(Configuration.fromEnvironment());
    }
}
