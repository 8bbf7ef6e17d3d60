package org.electorallog.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One part of the cluster in a JVM of its own, started from this JVM's class path: a Kafka node
 * ({@code kafka.Kafka}) or the operator's {@code electoral-log} command ({@code projector},
 * {@code api}, {@code rebuild}). It logs at WARN to {@code <name>.log} in the work directory (a
 * restart appends), keeps its temporary files in {@code tmp-<name>}, and can be killed with SIGKILL
 * and started again with the same command and environment.
 */
public final class JavaProcess implements AutoCloseable {
    /** The launcher's entry point: the command line an operator runs as {@code electoral-log}. */
    public static final String LAUNCHER = "org.electorallog.launcher.Main";

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private final URI ready;
    private Process process;

    private JavaProcess(String name, List<String> command, Map<String, String> environment, Path log, URI ready) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
        this.ready = ready;
    }

    /**
     * Starts {@code mainClass args} with {@code heapMb} of heap and {@code environment} as its only
     * {@code ELECTORAL_LOG_*} variables; {@code ready} (a {@code /health/ready} URL) is what
     * {@link #awaitReady} polls, null for a process without one.
     */
    public static JavaProcess start(
            Path work,
            String name,
            int heapMb,
            String mainClass,
            List<String> args,
            Map<String, String> environment,
            URI ready) {
        try {
            Path tmp = Files.createDirectories(work.resolve("tmp-" + name));
            Path logback = work.resolve("logback.xml");
            if (!Files.exists(logback)) {
                try (var in = JavaProcess.class.getResourceAsStream("/cluster-logback.xml")) {
                    Files.write(logback, in.readAllBytes());
                }
            }
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(
                    java,
                    "-Xmx" + heapMb + "m",
                    "-XX:+UseSerialGC",
                    "-Djava.io.tmpdir=" + tmp,
                    "-Dlogback.configurationFile=" + logback,
                    "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.electorallog.schemas.avro",
                    "-cp",
                    System.getProperty("java.class.path"),
                    mainClass));
            command.addAll(args);
            JavaProcess p = new JavaProcess(name, command, environment, work.resolve(name + ".log"), ready);
            p.launch();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    private synchronized void launch() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ELECTORAL_LOG_")); // only what is given
        pb.environment().putAll(environment);
        process = pb.start();
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public synchronized boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until its readiness URL answers 200; fails if it exits first or the time runs out. */
    public JavaProcess awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Process p;
            synchronized (this) {
                p = process;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException(
                        name + " exited with " + p.exitValue() + " before it was ready; its output: " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + " was not ready within " + timeout.toSeconds() + " s; its output: " + log);
            }
            if (status(ready) == 200) {
                return this;
            }
            pause(100); // poll interval; the readiness endpoint is the condition
        }
    }

    /** The HTTP status of a GET, or -1 when nothing answers within a second. */
    static int status(URI uri) {
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            int status = c.getResponseCode();
            c.disconnect();
            return status;
        } catch (IOException notAnswering) {
            return -1;
        }
    }

    /** Waits for a run-to-completion command (such as {@code rebuild}) and returns its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException(name + " did not finish within " + timeout.toSeconds() + " s: " + log);
        }
        return p.exitValue();
    }

    /** SIGKILL, as a machine or JVM crash would; waits until it is gone. */
    public void kill() throws InterruptedException {
        Process p;
        synchronized (this) {
            p = process;
        }
        p.destroyForcibly().waitFor();
    }

    /** Starts it again with the same command and environment (after {@link #kill} or an exit). */
    public void restart() {
        synchronized (this) {
            if (process.isAlive()) {
                throw new IllegalStateException(name + " is still running");
            }
            try {
                launch();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot restart " + name, e);
            }
        }
    }

    /** SIGTERM (its shutdown hooks run), then SIGKILL after 30 s. */
    @Override
    public void close() {
        Process p;
        synchronized (this) {
            p = process;
        }
        p.destroy();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
