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

    /**
     * {@code verify} of record proofs on {@code board} of {@code env}'s log: {@code source} (a file, or
     * {@code --tiles-url} and {@code --record}), the entry's leaf hash, the log's key and the local
     * witness with a quorum of 1.
     */
    static String[] of(DevEnvironment env, String board, String leaf, String... source) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(source));
        args.addAll(java.util.List.of(
                "--log-key",
                env.signer().verifierKey(),
                "--origin",
                org.electorallog.config.Setting.ORIGIN_PREFIX.defaultValue + board,
                "--leaf-hash",
                leaf,
                "--witness",
                env.witness().verifierKey(),
                "--quorum",
                "1"));
        return run(args.toArray(String[]::new));
    }
}
