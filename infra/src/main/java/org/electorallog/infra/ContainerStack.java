package org.electorallog.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import org.electorallog.config.DatabaseLogin;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Kafka and PostgreSQL in Docker containers (the official {@code apache/kafka} and {@code postgres}
 * images) through Testcontainers, used when a Docker engine answers and no external servers are
 * named.
 */
public final class ContainerStack implements Stack {
    public static final String KAFKA_IMAGE = "apache/kafka:4.1.1";
    /** The official image of the major the build asked for ({@code electoral-log.postgres.major}), else 18. */
    public static final String POSTGRES_IMAGE = "postgres:" + askedMajor();

    private final KafkaContainer kafka;
    private final PostgreSQLContainer postgres;

    private ContainerStack(KafkaContainer kafka, PostgreSQLContainer postgres) {
        this.kafka = kafka;
        this.postgres = postgres;
    }

    private static String askedMajor() {
        String asked = System.getProperty(EmbeddedPostgresServer.EXPECTED_MAJOR_PROPERTY, "")
                .strip();
        return asked.isEmpty() ? "18" : asked;
    }

    /** Whether a Docker engine answers (cheap when none is configured). */
    public static boolean dockerAvailable() {
        String host = System.getenv("DOCKER_HOST");
        if ((host == null || host.isBlank()) && !Files.exists(Path.of("/var/run/docker.sock"))) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    public static ContainerStack start() {
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE));
        PostgreSQLContainer pg = new PostgreSQLContainer(DockerImageName.parse(POSTGRES_IMAGE));
        kafka.start();
        try {
            pg.start();
        } catch (RuntimeException e) {
            kafka.stop();
            throw e;
        }
        return new ContainerStack(kafka, pg);
    }

    @Override
    public String kafkaBootstrap() {
        return kafka.getBootstrapServers();
    }

    @Override
    public DatabaseLogin database() {
        return new DatabaseLogin(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
    }

    @Override
    public String describe() {
        return "containers (" + KAFKA_IMAGE + " at " + kafkaBootstrap() + ", " + POSTGRES_IMAGE + " at "
                + postgres.getJdbcUrl() + ")";
    }

    @Override
    public void close() {
        try {
            kafka.stop();
        } finally {
            postgres.stop();
        }
    }
}
