package org.electorallog.publisher;

import java.nio.file.Path;
import java.time.Duration;
import org.electorallog.config.Configuration;
import org.electorallog.config.DatabaseLogin;

/**
 * The publisher as a process of its own: {@code PublisherMain <dir> <interval ms> [entries]}, the
 * database from the shared configuration ({@code ELECTORAL_LOG_JDBC_URL}, {@code _DB_USER},
 * {@code _DB_PASSWORD}); runs until it is stopped. {@code electoral-log publish-tiles} is the
 * operator's form.
 */
public final class PublisherMain {
    private PublisherMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: PublisherMain <dir> <interval ms> [entries]");
            System.exit(2);
        }
        Configuration conf = Configuration.load(System.getenv());
        Publisher p = Publisher.start(new Publisher.Settings(
                DatabaseLogin.of(conf),
                Path.of(args[0]),
                Duration.ofMillis(Long.parseLong(args[1])),
                args.length > 2 && args[2].equals("entries")));
        Runtime.getRuntime().addShutdownHook(new Thread(p::close, "publisher-stop"));
        System.out.println("publisher running into " + args[0]);
        Thread.currentThread().join();
    }
}
