package org.electorallog.projector;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one projector instance configured from the environment ({@link ProjectorConfig}) until the
 * process is stopped. Used by deployments and by the crash tests, which kill it with SIGKILL.
 */
public final class ProjectorMain {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorMain.class);

    private ProjectorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ProjectorSettings settings;
        try {
            settings = ProjectorConfig.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("projector: " + e.getMessage());
            System.exit(2);
            return;
        }
        Projector projector = Projector.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            projector.close();
            stopped.countDown();
        }, "projector-stop"));
        System.out.println("projector running: " + settings.applicationId() + " on " + settings.topic());
        LOG.info("projector running");
        stopped.await();
    }
}
