package org.electorallog.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log perf <command>}: the load-test harness (issue 8, docs/perf.md). Every command
 * runs against the persistent embedded stack in {@code --work} and writes a JSON result into
 * {@code --results}; {@code report} turns the results into a Markdown report with PNG charts.
 */
@Command(
        name = "electoral-log perf",
        mixinStandardHelpOptions = true,
        subcommands = {
            FillCommand.class,
            ProbeCommand.class,
            AppendsCommand.class,
            BurstCommand.class,
            RecoveryCommand.class,
            RehearseCommand.class,
            AuditCommand.class,
            StorageCommand.class,
            RebuildCommand.class,
            VerifyBoardCommand.class,
            ExportCommand.class,
            TilesCommand.class,
            WitnessRoundsCommand.class,
            SigningCommand.class,
            MirrorRateCommand.class,
            ProofsCommand.class,
            ReportCommand.class
        },
        description =
                "Load tests of the whole pipeline on an embedded stack that persists in --work (see docs/perf.md)")
public final class PerfCommand implements Runnable {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /** {@code ./electoral-log perf ...}: the script runs this with perf's own classpath, not the launcher's. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, every subcommand with {@code --help}, which exits 0 even when options are required. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PerfCommand());
        withHelp(cl);
        return cl;
    }

    private static void withHelp(CommandLine cl) {
        cl.getCommandSpec().mixinStandardHelpOptions(true);
        cl.getSubcommands().values().forEach(PerfCommand::withHelp);
    }

    /** Options every command shares. */
    static class Dirs {
        @Option(
                names = "--work",
                defaultValue = "perf/target/perf-stack",
                description = "the stack's data (kept between runs); default ${DEFAULT-VALUE}")
        Path work;

        @Option(
                names = "--results",
                defaultValue = "perf/results",
                description = "where results go; default ${DEFAULT-VALUE}")
        Path results;

        Path write(String name, Map<String, Object> result) throws Exception {
            Files.createDirectories(results);
            Path f = results.resolve(name + ".json");
            JSON.writeValue(f.toFile(), result);
            System.out.println("written " + f);
            return f;
        }
    }

    static String label(long records) {
        return ProbeRun.size(records);
    }

    /** Sizes are reported in whole millions when the boards are within 5 % of one (appends add a few). */
    static long roundDown(long n) {
        long m = Math.round(n / 1_000_000.0) * 1_000_000;
        return m > 0 && Math.abs(n - m) < m / 20 ? m : n;
    }
}
