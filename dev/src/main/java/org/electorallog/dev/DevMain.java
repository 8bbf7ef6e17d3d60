package org.electorallog.dev;

import org.electorallog.launcher.Main;
import picocli.CommandLine;

/**
 * The source tree's {@code ./electoral-log}: the operator's commands ({@link Main}) and, on the
 * embedded stack, {@code dev} and {@code demo}. Only this module carries the embedded Kafka broker
 * and PostgreSQL; the installable distribution does not.
 */
public final class DevMain {
    private DevMain() {}

    public static void main(String[] args) {
        Main.exit(commandLine(), args);
    }

    /** Runs a command line and returns its exit code (for tests). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The operator's command line with {@code dev} and {@code demo}, every subcommand with {@code --help}. */
    public static CommandLine commandLine() {
        CommandLine cl = Main.commandLine();
        cl.addSubcommand(new CommandLine(new DevCommand()));
        cl.addSubcommand(new CommandLine(new DemoCommand()));
        Main.withHelp(cl);
        return cl;
    }
}
