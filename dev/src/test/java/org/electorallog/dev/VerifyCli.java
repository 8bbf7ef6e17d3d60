package org.electorallog.dev;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.electorallog.launcher.VerifyCommand;
import picocli.CommandLine;

/** {@code electoral-log verify} run in this JVM: its exit code, what it printed, what it printed on errors. */
final class VerifyCli {
    private VerifyCli() {}

    static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        VerifyCommand c = new VerifyCommand();
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        int exit = new CommandLine(c).execute(args);
        return new String[] {
            Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }
}
