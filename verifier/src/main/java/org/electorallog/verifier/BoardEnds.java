package org.electorallog.verifier;

import java.io.IOException;
import java.util.Base64;
import java.util.function.Consumer;
import org.electorallog.core.Checkpoint;

/**
 * The two ends of a board that {@code verify-board} checks once the tree is rebuilt (issue 42): its
 * seal (the last record) and, for a continued board, the link its first record makes to the sealed
 * board it continues.
 */
final class BoardEnds {
    /** How many boards back a chain of continuations is followed. */
    static final int MAX_CHAIN = 8;

    private BoardEnds() {}

    /**
     * The seal: a BOARD_SEALED record is the board's last ({@link EntryChecks} saw every entry
     * after it); where the source says the board is sealed (a query API), at the checkpoint's size
     * and on a BOARD_SEALED record. Returns the sealed size, or -1 (open, or not known).
     *
     * @param said       the sealed size the source states, -1 open, or {@link TlogFiles#NOT_SAID}
     * @param allEntries whether every entry was read (the seal's kind can then be checked)
     */
    static long seal(long said, Checkpoint cp, boolean allEntries, EntryChecks checks, Consumer<String> problem) {
        if (said == TlogFiles.NOT_SAID) {
            return checks.sealIndex() >= 0 ? checks.sealIndex() + 1 : -1;
        }
        if (said >= 0 && said != cp.size()) {
            problem.accept("the board was sealed at size " + said + ", and its checkpoint is at size " + cp.size());
        }
        if (allEntries && said >= 0 && checks.sealIndex() != said - 1) {
            problem.accept("the board is said to be sealed at size " + said + ", and record " + (said - 1)
                    + " is not a BOARD_SEALED statement");
        }
        if (allEntries && said < 0 && checks.sealIndex() >= 0) {
            problem.accept("record " + checks.sealIndex()
                    + " is a BOARD_SEALED statement, and the log says the board is open");
        }
        return said;
    }

    /**
     * A LOG_CONTINUATION link: the board it names is verified whole (its own checks, its own
     * continuation up to {@link #MAX_CHAIN} boards back) and must be sealed at the size the link
     * names, with the root it names.
     */
    static void link(EntryChecks.Continuation link, VerifyOptions options, int depth, Consumer<String> problem)
            throws IOException {
        String name = link.previousBoard();
        TlogFiles previous = options.boards() == null ? null : options.boards().apply(name);
        if (previous == null) {
            problem.accept("the board continues board '" + name + "' and there is no source for that board to "
                    + "check the link with (verify-board --previous)");
            return;
        }
        if (depth + 1 >= MAX_CHAIN) {
            problem.accept("the chain of continuations is longer than " + MAX_CHAIN + " boards at '" + name + "'");
            return;
        }
        Verification r = BoardVerifier.verifyContinued(previous, options.forBoard(name), depth + 1);
        r.problems().forEach(p -> problem.accept("the board it continues, '" + name + "': " + p));
        String named = Base64.getEncoder().encodeToString(link.previousRoot());
        if (r.size() != link.previousSize() || !named.equals(r.root())) {
            problem.accept("broken continuation link: record 0 names board '" + name + "' at size "
                    + link.previousSize() + " with root " + named + ", and that board's checkpoint is at size "
                    + r.size() + " with root " + r.root());
        } else if (r.sealedSize() != link.previousSize()) {
            problem.accept("broken continuation link: board '" + name + "' is not sealed at size "
                    + link.previousSize()
                    + (r.sealedSize() < 0 ? " (it is open, or its entries could not be read)" : ""));
        }
    }
}
