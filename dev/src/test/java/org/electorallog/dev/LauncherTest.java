package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.electorallog.infra.ProcessLiveness;
import org.junit.jupiter.api.Test;

/** The demo and dev commands as a user runs them. */
class LauncherTest {

    @Test
    void demoPublishesVerifiesAndExitsZero() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = DevMain.run("demo", "--voters", "200", "--proofs", "10", "--work-dir", "target/stack/demo");
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        old.println(out);
        assertEquals(0, code, out);
        assertTrue(out.contains("on 2 boards in the committed form"), out);
        assertTrue(out.contains("every board sealed at the size published"), out);
        assertTrue(out.contains("records    1,001  root"), "1,000 statements and the seal: " + out);
        assertTrue(out.contains("20 inclusion proofs verified"), out);
        assertTrue(
                out.contains(
                        "verify-board, without a token: demo-election-1 verified whole after its seal: 1,001 entries hashed"),
                out);
        assertTrue(out.contains("demo: OK"), out);
    }

    @Test
    void demoRefusesBadOptions() {
        assertEquals(2, DevMain.run("demo", "--voters", "0"));
    }

    @Test
    void devStaysUpThenStopsCleanlyOnInterrupt() throws Exception {
        Path work = Path.of("target/stack/dev").toAbsolutePath();
        Files.createDirectories(work);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                        "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.electorallog.schemas.avro",
                        "org.electorallog.dev.DevMain",
                        "dev",
                        "--port",
                        "0",
                        "--work-dir",
                        work.toString())
                .redirectErrorStream(true)
                .start();
        List<String> lines = new ArrayList<>();
        String apiUrl = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                Matcher m =
                        Pattern.compile("query API:\\s+(http://\\S+)/boards").matcher(line);
                if (m.find()) {
                    apiUrl = m.group(1);
                }
                if (line.contains("press Ctrl-C to stop")) {
                    break;
                }
            }
            assertTrue(apiUrl != null, "dev printed its URLs: " + lines);
            assertEquals("{\"boards\":[]}", new LogClient(apiUrl).get("/boards"));
            String token = lines.stream()
                    .filter(l -> l.contains("admin token:"))
                    .findFirst()
                    .orElseThrow()
                    .replaceAll(".*admin token:\\s+(\\S+).*", "$1");
            HttpResponse<String> verifier = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(apiUrl + "/admin/verifier"))
                                    .header("Authorization", "Bearer " + token)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, verifier.statusCode(), verifier.body());
            // one token per role (docs/security.md): the observer's may read a record, not the verifier
            for (String role : List.of("voter", "observer", "analyst", "admin")) {
                assertTrue(
                        lines.stream().anyMatch(l -> l.contains(role + " token:")), "a " + role + " token: " + lines);
            }
            String observer = lines.stream()
                    .filter(l -> l.contains("observer token:"))
                    .findFirst()
                    .orElseThrow()
                    .replaceAll(".*observer token:\\s+(\\S+).*", "$1");
            assertEquals(
                    403,
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(apiUrl + "/admin/verifier"))
                                            .header("Authorization", "Bearer " + observer)
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode());
            List<ProcessHandle> postgres = ProcessHandle.allProcesses()
                    .filter(h -> h.info().commandLine().orElse("").contains(work.toString()))
                    .toList();
            assertFalse(postgres.isEmpty(), "dev runs PostgreSQL with its data under " + work);
            new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "dev stops after Ctrl-C");
            assertTrue(lines.contains("stopped"), "dev says it stopped: " + lines);
            for (ProcessHandle h : postgres) {
                assertFalse(ProcessLiveness.isRunning(h), "process " + h.pid() + " left running after dev stopped");
            }
            assertFalse(
                    ProcessHandle.allProcesses()
                            .filter(ProcessLiveness::isRunning)
                            .anyMatch(h -> h.info().commandLine().orElse("").contains(work.toString())),
                    "a process still names " + work);
        } finally {
            p.destroyForcibly();
        }
    }

    /** Issue 44 item 6: every subcommand's --help exits 0 with its usage, required options or not. */
    @Test
    void everySubcommandsHelpExitsZeroWithItsUsage() {
        java.util.List<java.util.List<String>> paths = new java.util.ArrayList<>();
        collect(DevMain.commandLine(), new java.util.ArrayList<>(), paths);
        for (String command : List.of("projector", "api", "dev", "demo", "witness", "rebuild", "publish")) {
            assertTrue(paths.contains(List.of(command)), command + " in the command tree: " + paths);
        }
        assertFalse(paths.contains(List.of("perf")), "perf is a program of its own: " + paths);
        for (java.util.List<String> path : paths) {
            picocli.CommandLine cl = DevMain.commandLine();
            java.io.StringWriter out = new java.io.StringWriter();
            cl.setOut(new java.io.PrintWriter(out));
            java.util.List<String> args = new java.util.ArrayList<>(path);
            args.add("--help");
            assertEquals(0, cl.execute(args.toArray(String[]::new)), String.join(" ", args) + ": " + out);
            assertTrue(out.toString().startsWith("Usage: electoral-log"), String.join(" ", args) + ": " + out);
        }
    }

    private static void collect(
            picocli.CommandLine cl, java.util.List<String> path, java.util.List<java.util.List<String>> out) {
        out.add(java.util.List.copyOf(path));
        for (java.util.Map.Entry<String, picocli.CommandLine> sub :
                cl.getSubcommands().entrySet()) {
            java.util.List<String> next = new java.util.ArrayList<>(path);
            next.add(sub.getKey());
            collect(sub.getValue(), next, out);
        }
    }
}
