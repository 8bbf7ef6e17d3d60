package org.electorallog.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.electorallog.config.DatabaseLogin;

/**
 * A real PostgreSQL server (zonky's embedded binaries: PostgreSQL 18 unless the build puts another
 * supported major's on the class path, see docs/testing.md) run as a child process. When
 * this JVM runs as root, zonky starts it inside a user namespace ({@code unshare -U}), because
 * PostgreSQL refuses to run as root. Data and the extracted binaries live under the given directory.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
    /** Settings for a 2-core, 24 GB development machine; see docs/operations.md for production. */
    public static final Map<String, String> DEFAULT_SETTINGS = defaults();

    /** The system property naming the major the build means to run (unset: any). */
    public static final String EXPECTED_MAJOR_PROPERTY = "electoral-log.postgres.major";

    private final Path dataDir;
    private final Path workDir;
    private final int port;
    private final Map<String, String> settings;
    private EmbeddedPostgres pg;

    private EmbeddedPostgresServer(Path baseDir, Map<String, String> settings) {
        this.dataDir = baseDir.resolve("data");
        this.workDir = baseDir.resolve("binaries");
        this.port = FreePorts.pick();
        this.settings = settings;
    }

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        // zonky starts PostgreSQL with -F (fsync off) and synchronous_commit=off: the log must not
        // lose a committed batch, so both are turned back on
        m.put("fsync", "on");
        m.put("synchronous_commit", "on");
        m.put("max_connections", "200");
        m.put("shared_buffers", "512MB");
        m.put("work_mem", "16MB");
        m.put("maintenance_work_mem", "256MB");
        m.put("max_wal_size", "4GB");
        m.put("checkpoint_timeout", "15min");
        m.put("random_page_cost", "1.1");
        m.put("effective_cache_size", "8GB");
        m.put("jit", "off");
        // decision 82: shared memory in huge pages when the kernel reserves them (PostgreSQL's own
        // default, stated so that results and readers see it): without them every new connection
        // faults in shared buffers 4 KB at a time, and a restarted projector's first batches are slower
        m.put("huge_pages", "try");
        return Map.copyOf(m);
    }

    /** Starts a fresh server whose data lives in {@code baseDir/data} (emptied first). */
    public static EmbeddedPostgresServer start(Path baseDir) {
        return start(baseDir, DEFAULT_SETTINGS);
    }

    public static EmbeddedPostgresServer start(Path baseDir, Map<String, String> settings) {
        EmbeddedPostgresServer s = new EmbeddedPostgresServer(baseDir, settings);
        EmbeddedStack.deleteTree(s.dataDir);
        s.startServer();
        return s;
    }

    /**
     * Starts a server on the data in {@code baseDir/data}, keeping what is there (a new directory is
     * initialized): for runs that resume, such as the perf harness's fill.
     */
    public static EmbeddedPostgresServer open(Path baseDir, Map<String, String> settings) {
        EmbeddedPostgresServer s = new EmbeddedPostgresServer(baseDir, settings);
        s.startServer();
        return s;
    }

    /** Starts the server again on the same data directory and port, after {@link #stop()}. */
    public synchronized void restart() {
        if (pg == null) {
            startServer();
        }
    }

    public synchronized boolean isRunning() {
        return pg != null;
    }

    private synchronized void startServer() {
        try {
            Files.createDirectories(workDir);
            // the data directory is kept across stop and restart; its owner removes it
            EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setOverrideWorkingDirectory(workDir.toFile())
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    // no hook of its own: JVM hooks run at once, and the server must outlive the parts
                    // that use it; whoever owns it stops it (EmbeddedStack through ExitOrder)
                    .setRegisterShutdownHook(false);
            settings.forEach(b::setServerConfig);
            pg = b.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDir + ": " + e.getMessage(), e);
        }
        requireExpectedMajor();
    }

    /**
     * The build names the major it meant to test ({@code electoral-log.postgres.major}, from the POM's
     * {@code postgres-binaries.major} or {@code postgres-oldest.major}): a class path that still held
     * another major's binaries would otherwise pass for a run on the asked one.
     */
    private void requireExpectedMajor() {
        String expected = System.getProperty(EXPECTED_MAJOR_PROPERTY, "").strip();
        if (expected.isEmpty()) {
            return;
        }
        String actual = major();
        if (!actual.equals(expected)) {
            close();
            throw new IllegalStateException("embedded PostgreSQL is " + actual + ", but the build asked for " + expected
                    + " (" + EXPECTED_MAJOR_PROPERTY + "): the binaries on the class path are another major's");
        }
    }

    /** The server's major version, from its data directory's {@code PG_VERSION} (e.g. {@code 18}). */
    public String major() {
        try {
            return Files.readString(dataDir.resolve("PG_VERSION")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the PostgreSQL version of " + dataDir + ": " + e.getMessage(), e);
        }
    }

    public DatabaseLogin address() {
        return new DatabaseLogin("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
    }

    public int port() {
        return port;
    }

    /** The postmaster process (its PID is the first line of {@code postmaster.pid}), while running. */
    public synchronized Optional<ProcessHandle> process() {
        if (pg == null) {
            return Optional.empty();
        }
        try {
            String first =
                    Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip();
            return ProcessHandle.of(Long.parseLong(first));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Its data directory ({@code baseDir/data}). */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Kills the postmaster with SIGKILL, as a machine or process crash would: no checkpoint, no
     * goodbye to clients or standbys; its backends exit when they notice the postmaster gone. Waits
     * until it has exited; the data stays (a restart runs crash recovery).
     */
    public synchronized void kill() {
        Optional<ProcessHandle> postmaster = process();
        pg = null; // the zonky handle is dropped: its stop would run pg_ctl against a dead server
        postmaster.ifPresent(p -> {
            p.destroyForcibly();
            awaitExit(p);
        });
    }

    /** Stops the server (fast shutdown) and waits for its processes to exit; the data stays. */
    public synchronized void stop() {
        if (pg != null) {
            Optional<ProcessHandle> postmaster = process();
            EmbeddedPostgres p = pg;
            pg = null;
            try {
                p.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stop embedded PostgreSQL: " + e.getMessage(), e);
            }
            postmaster.ifPresent(EmbeddedPostgresServer::awaitExit);
        }
    }

    /**
     * Waits until the postmaster has exited. Polled through /proc ({@link ProcessLiveness}): it is
     * not this JVM's child, and {@code onExit()} of a non-child polls with growing pauses and counts
     * a zombie as alive, which added seconds to every stop.
     */
    private static void awaitExit(ProcessHandle postmaster) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (ProcessLiveness.isRunning(postmaster)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "PostgreSQL (pid " + postmaster.pid() + ") still running 60 s after its stop");
            }
            try {
                Thread.sleep(10); // poll interval; the process state is the condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for PostgreSQL to stop", e);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
