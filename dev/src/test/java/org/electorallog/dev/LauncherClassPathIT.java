package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.electorallog.testkit.ClassPathClosure;
import org.junit.jupiter.api.Test;

/**
 * The source tree's {@code ./electoral-log} on the class path it really runs with (issue 60):
 * {@code dev/target/dev-*.jar} and {@code dev/target/lib/*}, as the script names them, read as files
 * after {@code package}, never the test class path (which holds test-scoped jars such as the
 * publisher's, and so hid a demo that crashed on every fresh clone). Every class of this project
 * that {@link DevMain} reaches, every picocli subcommand among them, must find every class it names.
 */
class LauncherClassPathIT {

    @Test
    void everyClassTheCommandsReachIsOnTheScriptsClassPath() throws IOException {
        ClassPathClosure.Walk walk =
                ClassPathClosure.ofModule(Path.of("target"), "dev").walk(DevMain.class.getName());
        assertTrue(
                walk.missing().isEmpty(),
                "missing from ./electoral-log's class path (class=needed by): " + walk.missing());
        // the walk went through the commands, the demo's publication among them
        for (String reached : List.of(
                DemoCommand.class.getName(),
                DevCommand.class.getName(),
                "org.electorallog.launcher.ProjectorCommand",
                "org.electorallog.launcher.PublishTilesCommand",
                "org.electorallog.publisher.Publisher")) {
            assertTrue(walk.reached().contains(reached), reached + " reached from DevMain: " + walk.reached());
        }
    }
}
