package org.electorallog.monitor;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileSource;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.verifier.LogEndpoint;

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
     * Reports each heads entry of {@code entries} (from index {@code first}) whose board's tree, as
     * {@code api} serves it, does not have the root the entry names at its size: every one, not the
     * first (issue 61 item 3).
     */
    static void problems(
            LogEndpoint api, String originPrefix, List<byte[]> entries, long first, Consumer<String> problems)
            throws IOException {
        // one look may hold many entries of one board (one a round): its checkpoint and tiles read once
        Map<String, Served> served = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            long index = first + i;
            HeadsBoard.Head head;
            try {
                head = HeadsBoard.read(entries.get(i));
            } catch (ProofException e) {
                problems.accept("heads entry " + index + ": " + e.getMessage());
                continue;
            }
            if (!head.origin().startsWith(originPrefix)) {
                problems.accept("heads entry " + index + " names " + head.origin() + ", not a board of this log ("
                        + originPrefix + "*)");
                continue;
            }
            String board = head.origin().substring(originPrefix.length());
            Served tree = served.get(board);
            if (tree == null) {
                String note = api.checkpoint(board);
                if (note == null) {
                    problems.accept(
                            "heads entry " + index + " names board " + board + ", which has no checkpoint on this API");
                    continue;
                }
                try {
                    long size = Checkpoint.parse(SignedNote.parse(note).text()).size();
                    tree = new Served(size, memo(api.tiles(board, size)));
                } catch (ProofException e) {
                    problems.accept("heads entry " + index + " names board " + board
                            + ", whose checkpoint cannot be read: " + e.getMessage());
                    continue;
                }
                served.put(board, tree);
            }
            if (head.size() > tree.size()) {
                problems.accept("heads entry " + index + " names board " + board + " at size " + head.size()
                        + ", beyond the checkpoint of size " + tree.size() + " the API serves for it");
                continue;
            }
            byte[] root;
            try {
                root = ProofBuilder.rootAt(head.size(), tree.tiles());
            } catch (ProofBuilder.MissingTileException e) {
                problems.accept("heads entry " + index + " names board " + board + " at size " + head.size()
                        + ", whose tiles cannot give the root there: " + e.getMessage());
                continue;
            }
            if (!MessageDigest.isEqual(root, head.root())) {
                problems.accept("heads entry " + index + " names board " + board + " at size " + head.size()
                        + " with root "
                        + Base64.getEncoder().encodeToString(head.root())
                        + ", but the tree the API serves for it has root "
                        + Base64.getEncoder().encodeToString(root) + " there: the witnessed heads board and the board "
                        + "show two views");
            }
        }
    }

    /** A board's tree as the API serves it in this look: its checkpoint's size and its tiles, each read once. */
    private record Served(long size, TileSource tiles) {}

    /** Tiles read once per look, whatever the number of entries that need them. */
    private static TileSource memo(TileSource source) {
        Map<TileKey, byte[]> held = new HashMap<>();
        return keys -> {
            Set<TileKey> missing = new HashSet<>(keys);
            missing.removeAll(held.keySet());
            if (!missing.isEmpty()) {
                held.putAll(source.readTiles(missing));
            }
            Map<TileKey, byte[]> out = new HashMap<>();
            for (TileKey k : keys) {
                if (held.containsKey(k)) {
                    out.put(k, held.get(k));
                }
            }
            return out;
        };
    }
}
