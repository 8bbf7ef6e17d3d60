package org.electorallog.launcher;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code electoral-log} command line. */
@Command(
        name = "electoral-log",
        mixinStandardHelpOptions = true,
        version = "electoral-log 0.1.0",
        description = "An append-only, verifiable electoral log on Kafka and PostgreSQL.",
        subcommands = {
            DemoCommand.class,
            DevCommand.class,
            PublishCommand.class,
            RebuildCommand.class,
            AuditCommand.class,
            KeygenCommand.class,
            SendersCommand.class,
            DeadLettersCommand.class,
            VerifyCommand.class,
            WitnessCommand.class
        },
        footer = {"", "The load-test harness is a program of its own: ./electoral-log perf --help"})
public final class Main implements Runnable {
    public static void main(String[] args) {
        try {
            // the shared configuration (docs/configuration.md): a misspelt ELECTORAL_LOG_* name stops here
            org.electorallog.config.Configuration.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("electoral-log: " + e.getMessage());
            System.exit(2);
        }
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code (for tests). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /**
     * The command line, every subcommand with {@code --help} and {@code --version}: a subcommand's
     * {@code --help} exits 0 with its usage even when it has required options (issue 44).
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        withHelp(cl);
        return cl;
    }

    private static void withHelp(CommandLine cl) {
        cl.getCommandSpec().mixinStandardHelpOptions(true);
        cl.getSubcommands().values().forEach(Main::withHelp);
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
