package org.electorallog.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real schema registry: Apicurio Registry (the {@code io.apicurio:apicurio-registry-app}
 * distribution the build unpacks; docs/dependencies.md) run as a child process on this JVM's own
 * Java, on a free loopback port, its storage in memory (nothing kept between runs), its log in
 * {@code workDir/schema-registry.log}. Producers and projectors speak to it through its
 * Confluent-compatible API ({@link #url()}: {@code /apis/ccompat/v7}), as they would to a
 * Confluent Schema Registry. For tests; a deployment runs its own registry (docs/operations.md).
 */
public final class SchemaRegistryServer implements AutoCloseable {
    /** The system property naming the unpacked distribution (set by the build for tests). */
    public static final String HOME_PROPERTY = "electoral-log.apicurio.home";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private boolean closed;

    private SchemaRegistryServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        ExitOrder.register(this);
    }

    /** The runnable jar of the distribution unpacked under {@code dir} (the archive's {@code *-runner.jar}). */
    public static Path runnerJar(Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            List<Path> jars = children.filter(p -> p.getFileName().toString().startsWith("apicurio-registry-app-")
                            && p.getFileName().toString().endsWith("-runner.jar"))
                    .toList();
            if (jars.size() == 1) {
                return jars.get(0);
            }
            throw new IllegalStateException("expected one apicurio-registry-app-*-runner.jar under " + dir + ", found "
                    + jars.size() + "; the build unpacks it (mvn verify)");
        } catch (IOException e) {
            throw new IllegalStateException(
                    "no Apicurio Registry distribution at " + dir + " (" + e + "); the build unpacks it (mvn verify)",
                    e);
        }
    }

    /** Starts the registry of the distribution {@link #HOME_PROPERTY} names, its log under {@code workDir}. */
    public static SchemaRegistryServer start(Path workDir) {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null) {
            throw new IllegalStateException("the system property " + HOME_PROPERTY
                    + " must name the unpacked Apicurio Registry distribution (the module's pom sets it for tests)");
        }
        return start(Path.of(home), workDir);
    }

    /** Starts the registry of the distribution {@code home} and waits until its API answers. */
    public static SchemaRegistryServer start(Path home, Path workDir) {
        Path jar = runnerJar(home);
        int port = FreePorts.pick();
        Path log;
        Process process;
        try {
            Files.createDirectories(workDir);
            log = workDir.resolve("schema-registry-" + port + ".log");
            Path tmp = Files.createDirectories(workDir.resolve("schema-registry-tmp"));
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            process = new ProcessBuilder(
                            java.toString(),
                            "-Xmx256m",
                            "-Djava.io.tmpdir=" + tmp.toAbsolutePath(),
                            "-Dquarkus.http.host=127.0.0.1",
                            "-Dquarkus.http.port=" + port,
                            "-Dquarkus.log.level=WARN",
                            "-jar",
                            jar.toAbsolutePath().toString())
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Apicurio Registry (" + jar + ")", e);
        }
        SchemaRegistryServer server = new SchemaRegistryServer(process, port, log);
        try {
            server.awaitReady();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady() {
        // it starts in about 3 s
        ServerReadiness.await(
                process,
                URI.create(url() + "/subjects"),
                START_TIMEOUT,
                Duration.ofMillis(200),
                "Apicurio Registry",
                log);
    }

    /** The Confluent-compatible API: {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    /**
     * Registers {@code schema} of {@code schemaType} ({@code AVRO}, {@code JSON}, {@code PROTOBUF})
     * under {@code subject} through the Confluent-compatible API, as any producer of the registry
     * could (a test's way to put a schema of another type there); returns its ID.
     */
    public int register(String subject, String schema, String schemaType) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema).put("schemaType", schemaType);
        JsonNode answer = call(HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        return answer.get("id").asInt();
    }

    /** Sets the compatibility level of {@code subject} ({@code BACKWARD}, {@code NONE}, ...). */
    public void compatibility(String subject, String level) {
        call(HttpRequest.newBuilder(URI.create(url() + "/config/" + subject))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        JSON.createObjectNode().put("compatibility", level).toString())));
    }

    private JsonNode call(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r =
                    http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("the registry answered " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("the registry did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the registry", e);
        }
    }

    /** Where the server's output goes. */
    public Path log() {
        return log;
    }

    /** Stops the registry (SIGTERM, then SIGKILL after 20 s); a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ExitOrder.unregister(this);
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "Apicurio Registry at " + url();
    }
}
