package org.electorallog.cluster;

import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.infra.EmbeddedPostgresServer;
import org.electorallog.store.Servers;

/**
 * The rehearsal's last check: {@code electoral-log rebuild} (the operator's command, in a process
 * of its own, with the projectors' configuration) replays the events topic into a new database on
 * the current primary, audits it and compares it board by board with the live projection. Exit 0
 * means equal and clean.
 */
final class Rebuild {
    private Rebuild() {}

    static Map<String, Object> run(Cluster c) throws Exception {
        EmbeddedPostgresServer primary = c.databases().current();
        Servers.createDatabase(primary.address(), "rebuild");
        String into = primary.address().onDatabase("rebuild").jdbcUrl();
        JavaProcess p = JavaProcess.start(
                c.work(),
                "rebuild",
                768,
                JavaProcess.LAUNCHER,
                List.of("rebuild", "--into", into, "--timeout", "600"),
                c.projectorEnvironment(),
                null);
        int exit = p.awaitExit(Duration.ofMinutes(12));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("exit", exit);
        m.put("equal", exit == 0);
        List<String> lines = Files.readAllLines(p.log());
        m.put(
                "verdict",
                lines.stream()
                        .filter(l -> l.startsWith("rebuild: ") || l.startsWith("  "))
                        .limit(20)
                        .toList());
        return m;
    }
}
