package org.electorallog.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process is really running. A daemonized PostgreSQL that has exited stays a zombie until
 * its adoptive parent (PID 1) reaps it, and {@link ProcessHandle#isAlive()} still says "alive" for
 * a zombie; on Linux this reads the state letter in {@code /proc/<pid>/stat}.
 */
public final class ProcessLiveness {
    private ProcessLiveness() {}

    public static boolean isRunning(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", String.valueOf(p.pid()), "stat");
        try {
            String s = Files.readString(stat);
            int close = s.lastIndexOf(')');
            char state = s.charAt(close + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return !Files.exists(stat) ? false : p.isAlive();
        }
    }
}
