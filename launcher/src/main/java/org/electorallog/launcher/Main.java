package org.electorallog.launcher;

import org.electorallog.config.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The operator's {@code electoral-log} command line: the projector and the query API, publishing,
 * replay, audit, keys, the sender registry, dead letters, offline verification and a witness. The
 * installable distribution runs this; the source tree's {@code ./electoral-log} adds {@code dev}
 * and {@code demo} ({@code dev} module).
 */
@Command(
        name = "electoral-log",
        mixinStandardHelpOptions = true,
        version = "electoral-log 0.1.0",
        description = "An append-only, verifiable electoral log on Kafka and PostgreSQL.",
        subcommands = {
            ProjectorCommand.class,
            ApiCommand.class,
            PublishCommand.class,
            SealCommand.class,
            EraseCommand.class,
            MonitorCommand.class,
            VerifyBoardCommand.class,
            ExportCommand.class,
            VerifyExportCommand.class,
            PublishTilesCommand.class,
            RebuildCommand.class,
            AuditCommand.class,
            KeygenCommand.class,
            SendersCommand.class,
            KeysCommand.class,
            DeadLettersCommand.class,
            VerifyCommand.class,
            WitnessCommand.class,
            MirrorCommand.class
        },
        footer = {
            "",
            "From the source tree, ./electoral-log adds dev and demo (the embedded stack);",
            "./electoral-log perf runs the load tests."
        })
public final class Main implements Runnable {
    public static void main(String[] args) {
        exit(commandLine(), args);
    }

    /**
     * Checks the shared configuration (docs/configuration.md: a misspelt {@code ELECTORAL_LOG_*} name
     * stops here, exit 2), then runs {@code cl} with {@code args} and exits with its code.
     */
    public static void exit(CommandLine cl, String[] args) {
        try {
            Configuration.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("electoral-log: " + e.getMessage());
            System.exit(2);
        }
        System.exit(cl.execute(args));
    }

    /** Runs a command line and returns its exit code (for tests). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /**
     * The command line, every subcommand with {@code --help} and {@code --version}: a subcommand's
     * {@code --help} exits 0 with its usage even when it has required options (issue 44).
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        withHelp(cl);
        return cl;
    }

    /** Gives {@code cl} and every subcommand below it {@code --help} and {@code --version}. */
    public static void withHelp(CommandLine cl) {
        cl.getCommandSpec().mixinStandardHelpOptions(true);
        cl.getSubcommands().values().forEach(Main::withHelp);
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
