package org.electorallog.monitor;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.HeadsBoard;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * The monitor's look at the heads board's new entries (HEADS witness mode, docs/witnesses.md "One
 * witness round for every board"): each entry names a board's checkpoint (origin, size, root), and the
 * tree the API serves for that board must have that root at that size. The witnesses cosign the heads
 * board only, so a log that showed the heads board one tree of a board and its readers another (a
 * split view) would have to do it here, where the monitor compares the two.
 */
final class HeadsLook {
    private HeadsLook() {}

    /**
     * The first heads entry of {@code entries} (from index {@code first}) whose board's tree, as {@code
     * api} serves it, does not have the root the entry names at its size; null when none.
     */
    static String problem(LogEndpoint api, String originPrefix, List<byte[]> entries, long first) throws IOException {
        for (int i = 0; i < entries.size(); i++) {
            long index = first + i;
            HeadsBoard.Head head;
            try {
                head = HeadsBoard.read(entries.get(i));
            } catch (ProofException e) {
                return "heads entry " + index + ": " + e.getMessage();
            }
            if (!head.origin().startsWith(originPrefix)) {
                return "heads entry " + index + " names " + head.origin() + ", not a board of this log (" + originPrefix
                        + "*)";
            }
            String board = head.origin().substring(originPrefix.length());
            long served;
            try {
                served = Checkpoint.parse(
                                SignedNote.parse(api.checkpoint(board)).text())
                        .size();
            } catch (ProofException e) {
                return "heads entry " + index + " names board " + board + ", whose checkpoint cannot be read: "
                        + e.getMessage();
            }
            if (head.size() > served) {
                return "heads entry " + index + " names board " + board + " at size " + head.size()
                        + ", beyond the checkpoint of size " + served + " the API serves for it";
            }
            byte[] root;
            try {
                root = ProofBuilder.rootAt(head.size(), api.tiles(board, served));
            } catch (RuntimeException e) {
                return "heads entry " + index + " names board " + board + " at size " + head.size()
                        + ", whose tiles cannot give the root there: " + e.getMessage();
            }
            if (!MessageDigest.isEqual(root, head.root())) {
                return "heads entry " + index + " names board " + board + " at size " + head.size() + " with root "
                        + Base64.getEncoder().encodeToString(head.root())
                        + ", but the tree the API serves for it has root "
                        + Base64.getEncoder().encodeToString(root) + " there: the witnessed heads board and the board "
                        + "show two views";
            }
        }
        return null;
    }
}
