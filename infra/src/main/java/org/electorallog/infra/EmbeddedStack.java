package org.electorallog.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;

/**
 * The default stack: a real KRaft Kafka broker in this JVM and a real PostgreSQL server as a child
 * process, both with their data under one work directory, which {@link #close()} removes.
 */
public final class EmbeddedStack implements Stack {
    private final Path workDir;
    private final boolean deleteOnClose;
    private final EmbeddedKafkaBroker kafka;
    private final EmbeddedPostgresServer postgres;
    private boolean closed;

    private EmbeddedStack(
            Path workDir, boolean deleteOnClose, EmbeddedKafkaBroker kafka, EmbeddedPostgresServer postgres) {
        this.workDir = workDir;
        this.deleteOnClose = deleteOnClose;
        this.kafka = kafka;
        this.postgres = postgres;
        // stopped at JVM exit (after whatever registers later and runs on it) if nobody closed it
        ExitOrder.register(this);
    }

    /**
     * Starts both servers under a fresh directory inside {@code parent}; the directory is deleted
     * on close when {@code deleteOnClose}.
     */
    public static EmbeddedStack start(Path parent, boolean deleteOnClose) {
        Path dir;
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, "stack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create stack directory under " + parent, e);
        }
        EmbeddedKafkaBroker kafka = null;
        try {
            kafka = EmbeddedKafkaBroker.start(dir.resolve("kafka"));
            EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(dir.resolve("postgres"));
            return new EmbeddedStack(dir, deleteOnClose, kafka, pg);
        } catch (RuntimeException e) {
            if (kafka != null) {
                kafka.close();
            }
            throw e;
        }
    }

    /**
     * Starts both servers on the data in {@code dir}, keeping it (new servers where there is none) and
     * never deleting it: for runs that resume, such as the perf harness's fill. PostgreSQL gets
     * {@code pgSettings} over the defaults.
     */
    public static EmbeddedStack open(Path dir, Map<String, String> pgSettings) {
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(dir.resolve("kafka"));
        try {
            Map<String, String> settings = new LinkedHashMap<>(EmbeddedPostgresServer.DEFAULT_SETTINGS);
            settings.putAll(pgSettings);
            EmbeddedPostgresServer pg = EmbeddedPostgresServer.open(dir.resolve("postgres"), settings);
            return new EmbeddedStack(dir, false, kafka, pg);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    public EmbeddedKafkaBroker kafka() {
        return kafka;
    }

    public EmbeddedPostgresServer postgres() {
        return postgres;
    }

    public Path workDir() {
        return workDir;
    }

    @Override
    public String kafkaBootstrap() {
        return kafka.bootstrapServers();
    }

    @Override
    public DatabaseLogin database() {
        return postgres.address();
    }

    @Override
    public String describe() {
        return "embedded (Kafka KRaft broker at " + kafkaBootstrap() + ", PostgreSQL " + postgres.major()
                + " at 127.0.0.1:" + postgres.port() + ", data in " + workDir + ")";
    }

    /** Stops both servers (Kafka first) and deletes the data when asked to; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ExitOrder.unregister(this);
        RuntimeException failure = null;
        try {
            kafka.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            postgres.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (deleteOnClose) {
            deleteTree(workDir);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Deletes {@code dir} and everything under it, if it exists. */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
