package org.electorallog.perf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.core.NoteVerifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "audit", description = "Full audit rate of the largest perf board: a first run and a warm run")
final class AuditCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            String board = env.largestBoard();
            AuditOptions options = AuditOptions.of(List.of(NoteVerifier.parse(env.signer.verifierKey())));
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", board);
            for (String run : List.of("first", "warm")) {
                AuditResult a = new BoardAuditor(env.db, options).audit(board, new BoardAuditor.Progress());
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("records", a.recordsChecked());
                m.put("seconds", Latencies.round(a.seconds()));
                m.put("records_per_second", Math.round(a.recordsChecked() / a.seconds()));
                m.put("verdict", a.clean() ? "clean" : "findings: " + a.counts());
                r.put(run, m);
                System.err.printf(
                        "audit %s: %,d records in %.1f s (%,.0f records/s), %s%n",
                        run, a.recordsChecked(), a.seconds(), a.recordsChecked() / a.seconds(), m.get("verdict"));
            }
            r.put("records_all_boards", env.total());
            r.putAll(env.describe());
            dirs.write(
                    "audit-" + PerfCommand.label(((Number) ((Map<?, ?>) r.get("first")).get("records")).longValue()),
                    r);
        }
        return 0;
    }
}
