package org.electorallog.perf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.electorallog.testkit.ClassPathClosure;
import org.junit.jupiter.api.Test;

/**
 * {@code ./electoral-log perf} on the class path it really runs with (issue 60): {@code
 * perf/target/perf-*.jar} and {@code perf/target/lib/*}, read as files after {@code package}, not
 * the test class path. Every class of this project that {@link PerfCommand} reaches, each of its
 * fourteen commands among them, must find every class it names.
 */
class PerfClassPathIT {

    @Test
    void everyClassTheCommandsReachIsOnTheScriptsClassPath() throws IOException {
        ClassPathClosure.Walk walk =
                ClassPathClosure.ofModule(Path.of("target"), "perf").walk(PerfCommand.class.getName());
        assertTrue(
                walk.missing().isEmpty(),
                "missing from ./electoral-log perf's class path (class=needed by): " + walk.missing());
        for (Class<?> command : List.of(FillCommand.class, TilesCommand.class, ReportCommand.class)) {
            assertTrue(
                    walk.reached().contains(command.getName()),
                    command.getName() + " reached from PerfCommand: " + walk.reached());
        }
    }
}
