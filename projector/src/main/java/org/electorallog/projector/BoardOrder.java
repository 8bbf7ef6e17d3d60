package org.electorallog.projector;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.schemas.BadEventException;
import org.electorallog.statement.BoardRules;
import org.electorallog.statement.StatementKinds;

/**
 * The projector's enforcement of the statement module's {@link BoardRules} (issue 42): the events of
 * a batch that would follow a board's seal are refused with reason {@code BOARD_SEALED}, a
 * LOG_CONTINUATION that would not be the board's record 0 with reason {@code CONTINUATION_NOT_FIRST};
 * both are dead-lettered and the board and its partition go on. The decision depends only on the
 * board's records and the events' order, so a replay refuses the same ones.
 */
final class BoardOrder {
    private BoardOrder() {}

    /**
     * The events of {@code events} (offset order, repeats already dropped) that the board keeps
     * under its rules; the others go to {@code refused}.
     */
    static List<PendingEvent> keep(
            BoardProjection board, List<PendingEvent> events, List<BoardWriter.Refused> refused) {
        boolean sealed = board.sealedMillis != null;
        if (!sealed && events.stream().noneMatch(BoardOrder::ruled)) {
            return events; // the common case: an open board, no seal or continuation in the batch
        }
        long size = board.tree.size();
        BoardRules rules = BoardRules.at(size, sealed ? size - 1 : -1);
        List<PendingEvent> kept = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            short kind = e.content().kind();
            BoardRules.Breach breach = rules.check(kind);
            if (breach == null) {
                rules.next(kind);
                kept.add(e);
            } else {
                refused.add(new BoardWriter.Refused(e, reason(breach), message(board, rules, breach)));
            }
        }
        return kept;
    }

    /**
     * After {@code written} (the kept events) went into the board's tree: whether they sealed it; if
     * so the board's seal time is its last record's created time.
     */
    static boolean sealedBy(BoardProjection board, List<PendingEvent> written) {
        if (written.isEmpty() || written.get(written.size() - 1).content().kind() != StatementKinds.BOARD_SEALED) {
            return false;
        }
        board.sealedMillis = board.lastCreatedMillis;
        return true;
    }

    private static boolean ruled(PendingEvent e) {
        short kind = e.content().kind();
        return kind == StatementKinds.BOARD_SEALED || kind == StatementKinds.LOG_CONTINUATION;
    }

    private static BadEventException.Reason reason(BoardRules.Breach breach) {
        return switch (breach) {
            case AFTER_SEAL -> BadEventException.Reason.BOARD_SEALED;
            case CONTINUATION_NOT_FIRST -> BadEventException.Reason.CONTINUATION_NOT_FIRST;
        };
    }

    private static String message(BoardProjection board, BoardRules rules, BoardRules.Breach breach) {
        return switch (breach) {
            case AFTER_SEAL ->
                "board " + board.name + " was sealed at size " + (rules.sealIndex() + 1)
                        + " (its BOARD_SEALED record is " + rules.sealIndex() + ") and never grows again; a statement "
                        + "meant for after the seal belongs on another board, which may start with a LOG_CONTINUATION "
                        + "naming this board's size and root";
            case CONTINUATION_NOT_FIRST ->
                "a LOG_CONTINUATION names the board a new board continues, so it can only be that board's "
                        + "first record; board " + board.name + " has " + rules.size() + " record(s) before it. "
                        + "Start the continuation on a new board";
        };
    }
}
