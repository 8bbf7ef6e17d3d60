package org.electorallog.projector;

import java.io.IOException;
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
        int code;
        try {
            code = run(Configuration.fromEnvironment());
        } catch (IllegalArgumentException e) {
            System.err.println("projector: " + e.getMessage());
            code = 2;
        }
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the projector with {@code conf} until the process is stopped (SIGTERM or Ctrl-C); returns 2
     * at once, with the reason on standard error, when a setting is missing or bad or the metrics port
     * cannot be had. {@code electoral-log projector} and the image both start it this way.
     */
    public static int run(Configuration conf) throws InterruptedException {
        ProjectorSettings settings;
        String host;
        int port;
        try {
            settings = ProjectorConfig.from(conf);
            host = conf.get(Setting.METRICS_HOST);
            port = conf.port(Setting.METRICS_PORT);
        } catch (IllegalArgumentException e) {
            System.err.println("projector: " + e.getMessage());
            return 2;
        }
        Projector projector = Projector.start(settings);
        Witnessing witnessing;
        try {
            witnessing = Witnessing.start(conf, settings); // after the projector migrated the database
        } catch (IllegalArgumentException e) {
            projector.close();
            System.err.println("projector: " + e.getMessage());
            return 2;
        }
        ProjectorHttp http;
        try {
            http = ProjectorHttp.start(projector, witnessing, host, port);
        } catch (IOException e) {
            if (witnessing != null) {
                witnessing.close();
            }
            projector.close();
            System.err.println("projector: cannot serve metrics on " + host + ":" + port + " ("
                    + Setting.METRICS_PORT.env + "): " + e.getMessage());
            return 2;
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
        return 0;
    }
}
