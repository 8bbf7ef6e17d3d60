package org.electorallog.projector;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.StatementKinds;

/**
 * The start of a continued board (issue 42): a LOG_CONTINUATION names the sealed board this one
 * continues, so it may only be the board's first record (record 0), where a verifier looks for it
 * (verify-board checks the link). One anywhere else is refused with reason
 * {@code CONTINUATION_NOT_FIRST} and dead-lettered; the decision depends only on the board's size
 * and the events' order, so a replay refuses the same ones.
 */
final class BoardContinuation {
    private BoardContinuation() {}

    /**
     * The events of {@code events} (offset order, repeats dropped) without the LOG_CONTINUATION
     * statements that would not be record 0; those go to {@code refused}.
     */
    static List<PendingEvent> keepFirstOnly(
            BoardProjection board, List<PendingEvent> events, List<BoardWriter.Refused> refused) {
        if (events.stream().noneMatch(e -> e.content().kind() == StatementKinds.LOG_CONTINUATION)) {
            return events; // the common case
        }
        List<PendingEvent> kept = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            long at = board.tree.size() + kept.size();
            if (e.content().kind() == StatementKinds.LOG_CONTINUATION && at != 0) {
                refused.add(new BoardWriter.Refused(
                        e,
                        BadEventException.Reason.CONTINUATION_NOT_FIRST,
                        "a LOG_CONTINUATION names the board a new board continues, so it can only be that board's "
                                + "first record; board " + board.name + " has " + at + " record(s) before it. "
                                + "Start the continuation on a new board"));
                continue;
            }
            kept.add(e);
        }
        return kept;
    }
}
