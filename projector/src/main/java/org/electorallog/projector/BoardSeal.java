package org.electorallog.projector;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.StatementKinds;

/**
 * The end of a board (issue 42): its first BOARD_SEALED statement is its last record. Every
 * statement after it, in the same batch or any later one, is refused with reason
 * {@code BOARD_SEALED} and dead-lettered; the board and its partition go on. The decision depends
 * only on the board's records and the events' order, so a replay seals at the same size.
 */
final class BoardSeal {
    private BoardSeal() {}

    /**
     * The events of {@code events} (offset order, repeats already dropped) that the board keeps:
     * none when it is sealed, else those up to and including its first seal. The others go to
     * {@code refused}.
     */
    static List<PendingEvent> keepUntilSealed(
            BoardProjection board, List<PendingEvent> events, List<BoardWriter.Refused> refused) {
        if (board.sealedMillis == null
                && events.stream().noneMatch(e -> e.content().kind() == StatementKinds.BOARD_SEALED)) {
            return events; // the common case: an open board, no seal in the batch
        }
        long sealedSize = board.sealedMillis != null ? board.tree.size() : -1;
        List<PendingEvent> kept = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            if (sealedSize >= 0) {
                refused.add(
                        new BoardWriter.Refused(e, BadEventException.Reason.BOARD_SEALED, message(board, sealedSize)));
                continue;
            }
            kept.add(e);
            if (e.content().kind() == StatementKinds.BOARD_SEALED) {
                sealedSize = board.tree.size() + kept.size();
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

    private static String message(BoardProjection board, long sealedSize) {
        return "board " + board.name + " was sealed at size " + sealedSize + " (its BOARD_SEALED record is "
                + (sealedSize - 1) + ") and never grows again; a statement meant for after the seal belongs on "
                + "another board, which may start with a LOG_CONTINUATION naming this board's size and root";
    }
}
