package org.electorallog.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.verifier.LogEndpoint;

/**
 * {@code electoral-log monitor}: what an observer runs on their own machine to follow an electoral
 * log from the outside (issue 42). Each pass looks at every board of every API given (replicas, or
 * the same log as served to different people) through {@link BoardCheck}, keeps the verified state
 * on disk ({@link MonitorState}) and reports each finding with its evidence: printed, appended to
 * {@code findings.jsonl}, counted in {@link MonitorMetrics}. It needs no database and no Kafka.
 */
public final class Monitor {
    /**
     * @param endpoints    the APIs to follow (one log)
     * @param logKeys      the log's verifier keys
     * @param witnesses    the witnesses whose cosignatures are checked where present
     * @param originPrefix the log's origin prefix (the board name follows it)
     * @param boards       the boards to follow; empty: every board the first API lists
     * @param stateDir     where the verified state and the findings are kept
     */
    public record Settings(
            List<LogEndpoint> endpoints,
            List<NoteVerifier> logKeys,
            List<Cosigner.Verifier> witnesses,
            String originPrefix,
            List<String> boards,
            Path stateDir) {
        public Settings {
            endpoints = List.copyOf(endpoints);
            logKeys = List.copyOf(logKeys);
            witnesses = List.copyOf(witnesses);
            boards = List.copyOf(boards);
            if (endpoints.isEmpty() || logKeys.isEmpty()) {
                throw new IllegalArgumentException("a monitor needs at least one API URL and the log's verifier key");
            }
        }
    }

    private final Settings settings;
    private final MonitorState state;
    private final MonitorMetrics metrics;
    private final Consumer<String> report;
    private final Map<String, LogEndpoint> byUrl = new LinkedHashMap<>();
    /** Findings already reported by this process: a contradiction that persists is reported once per run. */
    private final Set<String> reported = new HashSet<>();

    /** {@code report} receives each finding as a JSON line and each unreachable API as a sentence. */
    public Monitor(Settings settings, MonitorMetrics metrics, Consumer<String> report) {
        this.settings = settings;
        this.state = new MonitorState(settings.stateDir());
        this.metrics = metrics;
        this.report = report;
        settings.endpoints().forEach(e -> byUrl.put(e.baseUrl(), e));
    }

    /** One look at every board through every API; the findings of this pass not reported before by this process. */
    public List<Finding> pass() {
        List<Finding> found = new ArrayList<>();
        BoardCheck.Trust trust =
                new BoardCheck.Trust(settings.logKeys(), settings.witnesses(), settings.originPrefix());
        for (LogEndpoint api : settings.endpoints()) {
            List<String> boards;
            try {
                boards = settings.boards().isEmpty() ? api.boards() : settings.boards();
            } catch (IOException e) {
                unreachable(api, e);
                continue;
            }
            if (settings.boards().isEmpty()) {
                // a board verified before that the API stops listing has not gone quietly (issue 61 item 3)
                for (String known : state.boards()) {
                    if (!boards.contains(known)) {
                        vanished(api, known, "the API no longer lists board " + known, found);
                    }
                }
            }
            for (String board : boards) {
                try {
                    String note = api.checkpoint(board);
                    if (note == null) {
                        if (state.read(board).isPresent()) {
                            vanished(api, board, "the API answers 404 for the checkpoint of board " + board, found);
                        }
                        continue; // else: no checkpoint yet
                    }
                    long sealed = api.sealedSize(board);
                    MonitorState.Board before = state.read(board).orElse(null);
                    BoardCheck.Result r = BoardCheck.check(
                            board,
                            api,
                            before,
                            note,
                            sealed,
                            trust,
                            url -> byUrl.getOrDefault(url, new LogEndpoint(url, null)));
                    if (!Objects.equals(r.state(), before)) {
                        state.write(board, r.state());
                    }
                    if (r.state() != null) {
                        // null: a board whose first look found a contradiction has nothing verified yet
                        metrics.verified(board, r.state());
                    }
                    for (Finding f : r.findings()) {
                        report(f, found);
                    }
                    for (String notice : r.notices()) {
                        if (reported.add(notice)) {
                            report.accept(notice);
                        }
                    }
                    if (r.entriesFailed() != null) {
                        unreachable(api, r.entriesFailed());
                    }
                } catch (IOException e) {
                    unreachable(api, e);
                } catch (UncheckedIOException e) {
                    unreachable(api, e.getCause());
                } catch (IllegalArgumentException | IllegalStateException e) {
                    // a name that is no board name, or a state file that cannot be read: the other boards go on
                    report.accept("monitor: board '" + board + "' of " + api.baseUrl() + " skipped: " + e.getMessage());
                }
            }
        }
        return found;
    }

    /** A board verified before that the API no longer serves: a finding with the checkpoint last verified. */
    private void vanished(LogEndpoint api, String board, String detail, List<Finding> found) {
        MonitorState.Board known = state.read(board).orElse(null);
        report(
                new Finding(
                        Finding.Kind.BOARD_VANISHED,
                        board,
                        api.baseUrl(),
                        detail + ", whose checkpoint the monitor verified before"
                                + (known == null ? "" : " (from " + known.source() + ")"),
                        known == null ? null : known.checkpoint(),
                        null,
                        List.of()),
                found);
    }

    /** Records, counts and prints a finding unless this process reported it already. */
    private void report(Finding f, List<Finding> found) {
        if (!reported.add(f.kind() + " " + f.board() + " " + f.source() + " " + f.current() + " " + f.detail())) {
            return;
        }
        state.append(f);
        metrics.found(f);
        report.accept(f.toJson());
        found.add(f);
    }

    private void unreachable(LogEndpoint api, IOException e) {
        metrics.unreachable();
        report.accept("monitor: " + api.baseUrl() + " did not answer: " + e.getMessage());
    }
}
