package org.electorallog.perf;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.config.Setting;

/**
 * The projector as an operator runs it, {@code org.electorallog.projector.ProjectorMain} in a JVM of
 * its own, configured through its environment like a deployment, against the perf stack's Kafka and
 * PostgreSQL. A burst measured on it meets a projector just restarted (a new JVM, its warm-up at start,
 * decision 75) while PostgreSQL and Kafka keep running, as when a projector is restarted or moved
 * during an election (decision 76); the in-process projector of the other perf commands shares its
 * JVM with the harness and every perf command starts PostgreSQL anew.
 */
final class ProjectorProcess implements AutoCloseable {
    private final Process process;
    private final int metricsPort;
    private final Path log;

    private ProjectorProcess(Process process, int metricsPort, Path log) {
        this.process = process;
        this.metricsPort = metricsPort;
        this.log = log;
    }

    /**
     * Starts ProjectorMain with the perf projector's settings (batches of 5,000 waiting at most
     * {@code batchWaitMs}, a checkpoint after every batch, the signed boards verified, the same
     * consumer group and signer key) and waits until its {@code /health/ready} answers 200. Its output
     * goes to {@code projector-process.log} in the work directory.
     */
    static ProjectorProcess start(PerfEnvironment env, int batchWaitMs) throws IOException, InterruptedException {
        return start(env, batchWaitMs, "projector-process", Map.of(), true);
    }

    /**
     * As {@link #start(PerfEnvironment, int)}, named {@code name} (its log {@code <name>.log}, its state
     * directory {@code streams-<name>}), with {@code settings} added to its environment (an instance
     * ID, a warm-up), and waiting for readiness only when {@code awaitReady}.
     */
    static ProjectorProcess start(
            PerfEnvironment env, int batchWaitMs, String name, Map<String, String> settings, boolean awaitReady)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // a free port for its metrics and health endpoints
        }
        DatabaseLogin db = env.stack.database();
        Path tmp = Files.createDirectories(env.work.resolve("tmp-" + name));
        Path log = env.work.resolve(name + ".log");
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java));
        // JVM options for this process only, e.g. a Flight Recorder of the restarted projector
        String opts = System.getenv("PROJECTOR_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.trim().split("\\s+")));
        }
        command.addAll(List.of(
                "-Djava.io.tmpdir=" + tmp,
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.electorallog.schemas.avro",
                "-cp",
                System.getProperty("java.class.path"),
                "org.electorallog.projector.ProjectorMain"));
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = pb.environment();
        environment.keySet().removeIf(k -> k.startsWith("ELECTORAL_LOG_")); // only what is set here
        environment.put(Setting.KAFKA_BOOTSTRAP.env, env.stack.kafkaBootstrap());
        environment.put(Setting.JDBC_URL.env, db.jdbcUrl());
        environment.put(Setting.DB_USER.env, db.user());
        environment.put(Setting.DB_PASSWORD.env, db.password());
        environment.put(Setting.SIGNING_KEY.env, env.signer.signerKey());
        environment.put(
                Setting.POST_QUANTUM_SIGNING_KEY.env,
                env.signer.postQuantum().orElseThrow().signerKey());
        environment.put(Setting.POST_QUANTUM_CHECKPOINT_EVERY_MS.env, "0");
        environment.put(
                Setting.STATE_DIR.env,
                env.work
                        .resolve(name.equals("projector-process") ? "streams-process" : "streams-" + name)
                        .toString());
        environment.put(Setting.BATCH_MAX_RECORDS.env, "5000");
        environment.put(Setting.BATCH_MAX_WAIT_MS.env, Integer.toString(batchWaitMs));
        environment.put(Setting.CHECKPOINT_EVERY_MS.env, "0");
        environment.put(Setting.SIGNATURE_POLICY.env, "SENDER");
        environment.put(Setting.SIGNED_BOARDS.env, PerfEnvironment.SIGNED_BOARDS);
        environment.put(Setting.METRICS_HOST.env, "127.0.0.1");
        environment.put(Setting.METRICS_PORT.env, Integer.toString(port));
        environment.putAll(settings);
        ProjectorProcess p = new ProjectorProcess(pb.start(), port, log);
        if (!awaitReady) {
            return p;
        }
        try {
            p.awaitReady(Duration.ofMinutes(2));
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI ready = URI.create("http://127.0.0.1:" + metricsPort + "/health/ready");
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the projector process exited with " + process.exitValue()
                        + " before it was ready; its output: " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the projector process was not ready within " + timeout.toSeconds() + " s; its output: " + log);
            }
            try {
                HttpURLConnection c = (HttpURLConnection) ready.toURL().openConnection();
                c.setConnectTimeout(1000);
                c.setReadTimeout(1000);
                int status = c.getResponseCode();
                c.disconnect();
                if (status == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // the JVM is still starting: the next poll asks again
            }
            Thread.sleep(50); // poll interval; its readiness endpoint is the condition
        }
    }

    /** Kills it with SIGKILL, as a machine or a JVM crash would, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Stops it as an operator would (SIGTERM: its shutdown hook closes the projector), then for good after 60 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
