package org.electorallog.projector;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.schemas.BadEventException;
import org.electorallog.statement.CanonicalStatementReader;

/**
 * A board in the committed form stays in it (issue 61 item 6, docs/personal-data.md): its first
 * record in the committed form (format 2) switches it for good (store V23 {@code committed_from});
 * from then on a statement holding a personal value in the clear (format 1 with a user ID, a
 * username, an IP address, a country or an error) is refused {@code COMMITTED_FORM_REQUIRED}, since
 * a value in a leaf can never be erased and one misconfigured producer would put voters' values in
 * the public record for ever. Format 1 statements without a personal value (a seal, an election
 * published) are kept. The rule reads only the board's own earlier records, so a replay applies it
 * at the same record.
 */
final class BoardForm {
    private BoardForm() {}

    /**
     * {@code events} (in order, the board's next records) less those the rule refuses (added to
     * {@code refused}); sets {@code board.committedFrom} at the first record in the committed form.
     */
    static List<PendingEvent> keepCommitted(
            BoardProjection board, List<PendingEvent> events, List<BoardWriter.Refused> refused) {
        List<PendingEvent> kept = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            boolean committed = e.statement().committed() != null;
            if (board.committedFrom == null) {
                if (committed) {
                    board.committedFrom = board.tree.size() + kept.size();
                }
                kept.add(e);
            } else if (committed
                    || !CanonicalStatementReader.holdsPersonalValue(
                            e.statement().entry().canonical())) {
                kept.add(e);
            } else {
                refused.add(new BoardWriter.Refused(
                        e,
                        BadEventException.Reason.COMMITTED_FORM_REQUIRED,
                        "board " + board.name + " is in the committed form since record " + board.committedFrom
                                + ": this statement holds a personal value in the clear (format 1), which a leaf would"
                                + " keep for ever; send it in the committed form (the producer's committedForm, "
                                + "docs/personal-data.md)"));
            }
        }
        return kept;
    }
}
