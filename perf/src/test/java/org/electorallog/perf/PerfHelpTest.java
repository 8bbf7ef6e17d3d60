package org.electorallog.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every {@code electoral-log perf} command's {@code --help} exits 0 with its usage, required options or not (issue 44). */
class PerfHelpTest {
    @Test
    void everyCommandsHelpExitsZeroWithItsUsage() {
        List<List<String>> paths = new ArrayList<>();
        collect(PerfCommand.commandLine(), new ArrayList<>(), paths);
        assertEquals(18, paths.size(), "perf and its seventeen commands: " + paths);
        for (List<String> path : paths) {
            CommandLine cl = PerfCommand.commandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out));
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            assertEquals(0, cl.execute(args.toArray(String[]::new)), String.join(" ", args) + ": " + out);
            assertTrue(out.toString().startsWith("Usage: electoral-log perf"), String.join(" ", args) + ": " + out);
        }
    }

    private static void collect(CommandLine cl, List<String> path, List<List<String>> out) {
        out.add(List.copyOf(path));
        for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
            List<String> next = new ArrayList<>(path);
            next.add(sub.getKey());
            collect(sub.getValue(), next, out);
        }
    }
}
