package org.electorallog.infra;

import java.nio.file.Path;

/**
 * One stack per JVM for tests (and benchmarks): started on first use, stopped by a shutdown hook.
 * Its embedded data goes under the system property {@code electoral-log.work-dir} (Surefire sets it
 * to {@code target/stack} of the module), else {@code target/stack}.
 */
public final class SharedStack {
    private static Stack stack;

    private SharedStack() {}

    public static synchronized Stack get() {
        if (stack == null) {
            Path dir = Path.of(System.getProperty("electoral-log.work-dir", "target/stack"));
            stack = Stacks.start(dir);
            Stack s = stack;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "shared-stack-stop"));
        }
        return stack;
    }
}
