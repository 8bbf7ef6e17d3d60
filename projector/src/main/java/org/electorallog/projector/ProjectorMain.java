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

    /** Port of /metrics and /health/* (default 9400; 0 = any free port). */
    public static final String METRICS_PORT = "ELECTORAL_LOG_METRICS_PORT";
    /** Address they listen on (default 127.0.0.1; 0.0.0.0 in a container). */
    public static final String METRICS_HOST = "ELECTORAL_LOG_METRICS_HOST";

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
        String host = System.getenv().getOrDefault(METRICS_HOST, "127.0.0.1");
        int port;
        try {
            port = Integer.parseInt(System.getenv().getOrDefault(METRICS_PORT, "9400").strip());
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            System.err.println("projector: " + METRICS_PORT + " must be a port number 0..65535 (0 = any free port)");
            System.exit(2);
            return;
        }
        Projector projector = Projector.start(settings);
        ProjectorHttp http;
        try {
            http = ProjectorHttp.start(projector, host, port);
        } catch (java.io.IOException e) {
            projector.close();
            System.err.println("projector: cannot serve metrics on " + host + ":" + port + " (" + METRICS_PORT + "): " + e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            http.close();
            projector.close();
            stopped.countDown();
        }, "projector-stop"));
        System.out.println("projector metrics and health on http://" + host + ":" + http.port() + "/metrics");
        System.out.println("projector running: " + settings.applicationId() + " on " + settings.topic());
        LOG.info("projector running");
        stopped.await();
    }
}
