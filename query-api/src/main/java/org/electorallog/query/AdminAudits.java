package org.electorallog.query;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.electorallog.audit.AuditOptions;
import org.electorallog.audit.AuditResult;
import org.electorallog.audit.BoardAuditor;
import org.electorallog.store.Projection;

/**
 * Audits started over the admin API: run one at a time in the background, their progress and
 * results kept (the last 100) for {@code GET /admin/audits/{id}}.
 */
final class AdminAudits implements AutoCloseable {
    private final Projection db;
    private final AuditOptions options;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "admin-audit");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Run> runs = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Run> eldest) {
            return size() > 100;
        }
    };

    AdminAudits(Projection db, AuditOptions options) {
        this.db = db;
        this.options = options;
    }

    private static final class Run {
        final String board;
        final BoardAuditor.Progress progress = new BoardAuditor.Progress();
        volatile AuditResult result;
        volatile String error;

        Run(String board) {
            this.board = board;
        }
    }

    synchronized String start(String board) {
        String id = UUID.randomUUID().toString();
        Run run = new Run(board);
        runs.put(id, run);
        runner.submit(() -> {
            try {
                run.result = new BoardAuditor(db, options).audit(board, run.progress);
            } catch (IllegalArgumentException e) {
                run.error = e.getMessage();
            } catch (Exception e) {
                run.error = "the audit failed: " + e.getMessage();
            }
        });
        return id;
    }

    synchronized Responses.AuditStatus status(String id) {
        Run run = runs.get(id);
        if (run == null) {
            throw ApiException.notFound("there is no audit " + id + " (the last 100 are kept)");
        }
        AuditResult result = run.result;
        String error = run.error;
        return new Responses.AuditStatus(
                id,
                run.board,
                error != null ? "failed" : result != null ? "done" : "running",
                run.progress.checked(),
                run.progress.total(),
                error,
                result == null ? null : result.clean() ? "clean" : "findings",
                result == null ? null : result.toJson());
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
