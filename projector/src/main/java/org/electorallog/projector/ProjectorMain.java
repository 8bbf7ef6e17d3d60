package org.electorallog.projector;

import java.util.concurrent.CountDownLatch;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one projector instance configured from the environment ({@link ProjectorConfig}) until the
 * process is stopped. Used by deployments and by the crash tests, which kill it with SIGKILL.
 */
public final class ProjectorMain {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectorMain.class);

    private ProjectorMain() {}

    public static void main(String[] args) throws InterruptedException {
        ProjectorSettings settings;
        Configuration conf;
        String host;
        int port;
        try {
            conf = Configuration.fromEnvironment();
            settings = ProjectorConfig.from(conf);
            host = conf.get(Setting.METRICS_HOST);
            port = conf.port(Setting.METRICS_PORT);
        } catch (IllegalArgumentException e) {
            System.err.println("projector: " + e.getMessage());
            System.exit(2);
            return;
        }
        Projector projector = Projector.start(settings);
        Witnessing witnessing;
        try {
            witnessing = Witnessing.start(conf, settings); // after the projector migrated the database
        } catch (IllegalArgumentException e) {
            projector.close();
            System.err.println("projector: " + e.getMessage());
            System.exit(2);
            return;
        }
        ProjectorHttp http;
        try {
            http = ProjectorHttp.start(projector, host, port);
        } catch (java.io.IOException e) {
            projector.close();
            System.err.println("projector: cannot serve metrics on " + host + ":" + port + " ("
                    + Setting.METRICS_PORT.env + "): " + e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            http.close();
                            if (witnessing != null) {
                                witnessing.close();
                            }
                            projector.close();
                            stopped.countDown();
                        },
                        "projector-stop"));
        System.out.println("projector metrics and health on http://" + host + ":" + http.port() + "/metrics");
        System.out.println("projector running: " + settings.applicationId() + " on " + settings.topic());
        LOG.info("projector running");
        stopped.await();
    }
}
