package org.electorallog.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.TileLayout;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.verifier.EntryChecks;
import org.electorallog.verifier.LogEndpoint;
import org.electorallog.verifier.Problem;
import org.electorallog.verifier.TreeCheck;

/**
 * The monitor's look at a board's entries (issue 42 item 2, "entry bundles where its role allows"):
 * the entry bundles of leaves [from, to) (C2SP tlog-tiles {@code tile/entries/}), each entry hashed
 * into its leaf (RFC 6962 section 2.1) and compared with the level-0 tile at tree size {@code to},
 * and read as a canonical statement ({@link EntryChecks}: of this board, nothing after a
 * BOARD_SEALED record, a LOG_CONTINUATION only as record 0); on the heads board each entry is also
 * compared with the tree of the board it names ({@link HeadsLook}).
 *
 * <p>It never looks away (issue 61 item 3): every problem is kept, not the first; an entry that was
 * read is read past whatever it held (its problems are the findings); a bundle the API does not
 * serve stops the look there, and the caller keeps that point and says why ({@link Look#withheld}).
 */
final class EntryLook {
    /** Entry bundles one look reads at most for one board; the next look goes on from where it stopped. */
    static final int MAX_BUNDLES_A_LOOK = 64;

    private EntryLook() {}

    /**
     * What one look read.
     *
     * @param readTo        the tree size up to which entries were read and checked
     * @param problems      every problem met, in entry order
     * @param withheld      the answer of the bundle that stopped the look (404, 401 or 403), or null
     * @param committedFrom the first entry read in the committed form (format 2), or -1
     */
    record Look(long readTo, List<String> problems, LogEndpoint.Answer withheld, long committedFrom) {}

    /** Reads the entries [from, to) of {@code board} ({@code logKeys}: the senders of the log's own statements), at most {@link #MAX_BUNDLES_A_LOOK} bundles. */
    static Look read(
            LogEndpoint api, String board, long from, long to, String originPrefix, List<NoteVerifier> logKeys) {
        List<String> problems = new ArrayList<>();
        EntryChecks checks = new EntryChecks(board, List.of(), null, logKeys, p -> problems.add(p.message()));
        long committedFrom = -1;
        long readTo = from;
        int bundles = 0;
        try {
            for (long t = from / TileLayout.TILE_WIDTH;
                    t * TileLayout.TILE_WIDTH < to && bundles < MAX_BUNDLES_A_LOOK;
                    t++, bundles++) {
                int width = TileLayout.width(0, t, to);
                String path = TileLayout.entriesPath(t, width);
                LogEndpoint.Answer bundle = api.fileAnswer(board, path);
                if (bundle.body() == null) {
                    return new Look(readTo, problems, bundle, committedFrom);
                }
                long end = t * TileLayout.TILE_WIDTH + width;
                byte[] tile = api.file(board, TileLayout.tilePath(0, t, width));
                if (tile == null || tile.length != width * Hashes.HASH_SIZE) {
                    problems.add("the level-0 tile " + TileLayout.tilePath(0, t, width) + " of entry bundle " + path
                            + " is missing, so its entries cannot be compared with their leaves");
                    readTo = end;
                    continue;
                }
                List<byte[]> entries;
                try {
                    entries = EntryBundle.decode(bundle.body());
                } catch (ProofException e) {
                    problems.add("entry bundle " + path + " cannot be read: " + e.getMessage());
                    readTo = end;
                    continue;
                }
                if (entries.size() != width) {
                    problems.add("entry bundle " + path + " holds " + entries.size() + " entries, not " + width);
                    readTo = end;
                    continue;
                }
                int first = (int) Math.max(0, from - t * TileLayout.TILE_WIDTH);
                int before = problems.size();
                for (int i = first; i < width; i++) {
                    long index = t * TileLayout.TILE_WIDTH + i;
                    Problem differs = TreeCheck.leaf(index, Hashes.leafHash(entries.get(i)), tile);
                    if (differs != null) {
                        problems.add(differs.message());
                    } else if (committedFrom < 0 && isCommitted(entries.get(i))) {
                        committedFrom = index; // only an entry of the log says what form the board is in
                    }
                }
                checks.bundle(t * TileLayout.TILE_WIDTH + first, entries.subList(first, width), null);
                if (board.equals(HeadsBoard.NAME) && problems.size() == before) {
                    HeadsLook.problems(
                            api,
                            originPrefix,
                            entries.subList(first, width),
                            t * TileLayout.TILE_WIDTH + first,
                            problems::add);
                }
                readTo = end;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the entries of " + board + " from " + api.baseUrl(), e);
        }
        return new Look(readTo, problems, null, committedFrom);
    }

    private static boolean isCommitted(byte[] entry) {
        try {
            return CanonicalStatementReader.formatVersion(entry) >= 2;
        } catch (IllegalArgumentException e) {
            return false; // not a statement: EntryChecks reports it
        }
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
