package org.electorallog.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.electorallog.core.CanonicalStatementReader;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.HeadsBoard;
import org.electorallog.core.ProofException;
import org.electorallog.core.TileLayout;

/**
 * The monitor's look at the entries a board grew by (issue 42 item 2, "entry bundles where its role
 * allows"): the entry bundles of leaves [from, to) (C2SP tlog-tiles {@code tile/entries/}), each
 * entry hashed into its leaf (RFC 6962 section 2.1) and compared with the level-0 tile at tree size
 * {@code to}, and read as a canonical statement ({@link EntryChecks}: of this board, nothing after a
 * BOARD_SEALED record, a LOG_CONTINUATION only as record 0); on the heads board each entry is also
 * compared with the tree of the board it names ({@link HeadsLook}). Where the API refuses the bundles to
 * this caller (format 1 statements without an observer's token) nothing is looked at: the tiles
 * alone are checked, as before.
 */
final class EntryLook {
    private EntryLook() {}

    /**
     * Null when every entry of [from, to) matched (or the caller may not read entries); otherwise
     * the first problem and how many there were. An API that does not answer is an
     * UncheckedIOException (the monitor counts it unreachable, not as a finding).
     */
    static String problem(LogEndpoint api, String board, long from, long to, String originPrefix) {
        List<String> problems = new ArrayList<>();
        EntryChecks checks = new EntryChecks(board, List.of(), null, problems::add);
        try {
            for (long t = from / TileLayout.TILE_WIDTH; t * TileLayout.TILE_WIDTH < to; t++) {
                int width = TileLayout.width(0, t, to);
                byte[] bundle = api.file(board, TileLayout.entriesPath(t, width));
                if (bundle == null) {
                    return null; // not this caller's to read
                }
                byte[] tile = api.file(board, TileLayout.tilePath(0, t, width));
                if (tile == null || tile.length != width * Hashes.HASH_SIZE) {
                    return "the level-0 tile " + TileLayout.tilePath(0, t, width) + " of the entries is missing";
                }
                List<byte[]> entries;
                try {
                    entries = EntryBundle.decode(bundle);
                } catch (ProofException e) {
                    return "entry bundle " + TileLayout.entriesPath(t, width) + " cannot be read: " + e.getMessage();
                }
                if (entries.size() != width) {
                    return "entry bundle " + TileLayout.entriesPath(t, width) + " holds " + entries.size()
                            + " entries, not " + width;
                }
                int first = (int) Math.max(0, from - t * TileLayout.TILE_WIDTH);
                for (int i = first; i < width; i++) {
                    byte[] leaf = Hashes.leafHash(entries.get(i));
                    if (!Arrays.equals(leaf, 0, 32, tile, i * 32, i * 32 + 32)) {
                        problems.add("entry " + (t * TileLayout.TILE_WIDTH + i)
                                + " does not hash to its leaf in the level-0 tile: the statement was changed");
                    }
                }
                checks.bundle(t * TileLayout.TILE_WIDTH + first, entries.subList(first, width), null);
                if (board.equals(HeadsBoard.NAME) && problems.isEmpty()) {
                    String heads = HeadsLook.problem(
                            api, originPrefix, entries.subList(first, width), t * TileLayout.TILE_WIDTH + first);
                    if (heads != null) {
                        problems.add(heads);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the entries of " + board + " from " + api.baseUrl(), e);
        }
        return problems.isEmpty()
                ? null
                : problems.get(0) + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : "");
    }

    /**
     * The kind of record {@code index} of a board of tree size {@code size} (its canonical
     * statement's {@code kind}), or null when the caller may not read entries.
     */
    static String kind(LogEndpoint api, String board, long index, long size) {
        long t = index / TileLayout.TILE_WIDTH;
        int width = TileLayout.width(0, t, size);
        try {
            byte[] bundle = api.file(board, TileLayout.entriesPath(t, width));
            if (bundle == null) {
                return null;
            }
            byte[] entry = EntryBundle.decode(bundle).get((int) (index - t * TileLayout.TILE_WIDTH));
            return String.valueOf(CanonicalStatementReader.fields(entry).get("kind"));
        } catch (IOException e) {
            throw new UncheckedIOException("record " + index + " of " + board + " from " + api.baseUrl(), e);
        } catch (ProofException | RuntimeException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
    }
}
