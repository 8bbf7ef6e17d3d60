package org.electorallog.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Keycloak server (the {@code org.keycloak:keycloak-quarkus-dist} distribution the build
 * unpacks) run as a child process: {@code kc.sh start-dev} on free loopback ports, an in-memory
 * database ({@code dev-mem}, nothing kept between runs), a bootstrap administrator with a password
 * made here, its log in {@code workDir/keycloak.log}. The issuer of a realm is fixed to the loopback
 * address ({@code KC_HOSTNAME}), so every token names the same {@code iss} whatever address a client
 * used. For tests and {@code electoral-log dev --oidc}; a deployment runs its own identity provider
 * (docs/security.md).
 */
public final class KeycloakServer implements AutoCloseable {
    /** The system property naming the unpacked distribution (set by the build for tests). */
    public static final String HOME_PROPERTY = "electoral-log.keycloak.home";

    /** The administrator of the master realm (its password is {@link #adminPassword()}). */
    public static final String ADMIN_USER = "admin";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private final Process process;
    private final int port;
    private final String adminPassword;
    private final Path log;
    private boolean closed;

    private KeycloakServer(Process process, int port, String adminPassword, Path log) {
        this.process = process;
        this.port = port;
        this.adminPassword = adminPassword;
        this.log = log;
        ExitOrder.register(this);
    }

    /**
     * The distribution under {@code dir}: {@code dir} itself when it holds {@code bin/kc.sh}, else
     * its one {@code keycloak-*} subdirectory (the zip's top folder).
     */
    public static Path distribution(Path dir) {
        if (Files.isRegularFile(dir.resolve("bin/kc.sh"))) {
            return dir;
        }
        try (Stream<Path> children = Files.list(dir)) {
            List<Path> homes = children.filter(p -> p.getFileName().toString().startsWith("keycloak-")
                            && Files.isRegularFile(p.resolve("bin/kc.sh")))
                    .toList();
            if (homes.size() == 1) {
                return homes.get(0);
            }
            throw new IllegalStateException("expected one Keycloak distribution (bin/kc.sh) under " + dir + ", found "
                    + homes.size() + "; the build unpacks it (mvn package)");
        } catch (IOException e) {
            throw new IllegalStateException(
                    "no Keycloak distribution at " + dir + " (" + e + "); the build unpacks it (mvn package)", e);
        }
    }

    /** The distribution named by {@link #HOME_PROPERTY}. */
    public static Path distributionFromProperty() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null) {
            throw new IllegalStateException("the system property " + HOME_PROPERTY
                    + " must name the unpacked Keycloak distribution (the module's pom sets it for tests)");
        }
        return distribution(Path.of(home));
    }

    /**
     * Starts Keycloak from the distribution {@code home}, with its log and temporary files under
     * {@code workDir}, and waits until its master realm answers.
     */
    public static KeycloakServer start(Path home, Path workDir) {
        Path kc = distribution(home).resolve("bin/kc.sh");
        int port = FreePorts.pick();
        int managementPort = FreePorts.pick();
        byte[] secret = new byte[18];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        Path log = workDir.resolve("keycloak.log");
        Path tmp = workDir.resolve("keycloak-tmp");
        Process process;
        try {
            Files.createDirectories(tmp);
            ProcessBuilder pb = new ProcessBuilder(kc.toString(), "start-dev")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = pb.environment();
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN_USER);
            env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", password);
            env.put("KC_DB", "dev-mem");
            env.put("KC_HTTP_HOST", "127.0.0.1");
            env.put("KC_HTTP_PORT", String.valueOf(port));
            env.put("KC_HTTP_MANAGEMENT_PORT", String.valueOf(managementPort));
            env.put("KC_HOSTNAME", "http://127.0.0.1:" + port);
            env.put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
            env.put("JAVA_OPTS_APPEND", "-Djava.io.tmpdir=" + tmp.toAbsolutePath());
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Keycloak (" + kc + ")", e);
        }
        KeycloakServer server = new KeycloakServer(process, port, password, log);
        try {
            server.awaitReady();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady() {
        // augmentation takes about 20 s on 2 cores at a fresh unpack's first start
        ServerReadiness.await(
                process,
                URI.create(issuer("master") + "/.well-known/openid-configuration"),
                START_TIMEOUT,
                Duration.ofMillis(500),
                "Keycloak",
                log);
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The exact {@code iss} of the realm's tokens. */
    public String issuer(String realm) {
        return baseUrl() + "/realms/" + realm;
    }

    /** The realm's signing keys (JWKS). */
    public String jwksUrl(String realm) {
        return issuer(realm) + "/protocol/openid-connect/certs";
    }

    /** The realm's token endpoint. */
    public String tokenEndpoint(String realm) {
        return issuer(realm) + "/protocol/openid-connect/token";
    }

    /** The realm's authorization endpoint (where a browser signs in). */
    public String authorizationEndpoint(String realm) {
        return issuer(realm) + "/protocol/openid-connect/auth";
    }

    /** The master realm administrator's password, made at start. */
    public String adminPassword() {
        return adminPassword;
    }

    /** Where the server's output goes. */
    public Path log() {
        return log;
    }

    /** Stops Keycloak (SIGTERM to kc.sh and the JVM it runs, then SIGKILL after 30 s); a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ExitOrder.unregister(this);
        List<ProcessHandle> all = Stream.concat(process.descendants(), Stream.of(process.toHandle()))
                .toList();
        all.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                all.forEach(ProcessHandle::destroyForcibly);
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            all.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "Keycloak at " + baseUrl();
    }
}
