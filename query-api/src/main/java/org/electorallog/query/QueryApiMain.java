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
        QueryApiSettings settings;
        try {
            settings = QueryApiConfig.from(Configuration.fromEnvironment());
        } catch (IllegalArgumentException e) {
            System.err.println("query-api: " + e.getMessage());
            System.exit(2);
            return;
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
    }
}
