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
            WitnessCommand.class,
            org.electorallog.perf.PerfCommand.class
        })
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
        return new CommandLine(new Main()).execute(args);
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
