package org.electorallog.query;

import java.util.concurrent.CountDownLatch;
import org.electorallog.config.Configuration;

/**
 * Runs one query API instance configured from the environment ({@link QueryApiConfig},
 * docs/configuration.md) until the process is stopped. A bad setting exits with status 2 and a
 * message naming it.
 */
public final class QueryApiMain {
    private QueryApiMain() {}

    public static void main(String[] args) throws InterruptedException {
        int code;
        try {
            code = run(Configuration.fromEnvironment());
        } catch (IllegalArgumentException e) {
            System.err.println("query-api: " + e.getMessage());
            code = 2;
        }
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the query API with {@code conf} until the process is stopped (SIGTERM or Ctrl-C); returns
     * 2 at once, with the reason on standard error, when a setting is missing or bad.
     * {@code electoral-log api} and the image both start it this way.
     */
    public static int run(Configuration conf) throws InterruptedException {
        QueryApiSettings settings;
        try {
            settings = QueryApiConfig.from(conf);
        } catch (IllegalArgumentException e) {
            System.err.println("query-api: " + e.getMessage());
            return 2;
        }
        QueryApi api = QueryApi.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            api.close();
                            stopped.countDown();
                        },
                        "query-api-stop"));
        System.out.println(
                "query API on " + api.baseUrl() + (settings.adminToken() == null ? " (admin endpoints off)" : ""));
        stopped.await();
        return 0;
    }
}
