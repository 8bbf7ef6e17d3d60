package org.electorallog.publisher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.store.BoardTip;
import org.electorallog.store.HeadLinks;
import org.electorallog.store.LogReader;

/**
 * One board copied into a {@link TlogDirectory} (issue 45 item 1, docs/architecture.md "Static
 * publication"), from the snapshot of {@code c}: the latest signed checkpoint with its witness
 * cosignatures (C2SP tlog-checkpoint, signed-note) and every hash tile it needs that the directory
 * lacks, level 0 up (C2SP tlog-tiles), then the entry bundles and the signature bundles beside them
 * none of whose entries holds a personal value in the clear (every one when the deployment publishes
 * entries), and the {@code checkpoint} file last: a reader never sees a
 * checkpoint whose tiles are missing. Then the partial tiles of every tile that became full are
 * removed (C2SP tlog-tiles: a client that does not find a partial tile reads the full tile, whose
 * prefix it is); a crash between the checkpoint and that removal leaves a few partial tiles behind,
 * which are harmless.
 */
public final class BoardPublication {
    private static final int BATCH = 1_000;

    private BoardPublication() {}

    /** What one publication did: the checkpoint's size, the size published before, files written. */
    public record Outcome(long size, long previous, int files) {}

    static Outcome publish(LogReader c, TlogDirectory dir, String board, boolean entries, boolean link, String policy)
            throws IOException {
        BoardTip tip = c.tip(board).orElse(null);
        if (tip == null || tip.checkpoint() == null) {
            return new Outcome(0, 0, 0);
        }
        String note = tip.cosignedNote();
        long n = tip.checkpoint().size();
        byte[] current = dir.read(board, "checkpoint");
        long p = current == null ? 0 : size(board, current);
        if (p > n) {
            throw new IllegalStateException("the directory holds a checkpoint of board " + board + " at size " + p
                    + ", beyond the database's " + n + ": another or a restored projection; publish into an empty "
                    + "directory");
        }
        int policyFile = policy(dir, board, policy);
        if (current != null && note.equals(new String(current, StandardCharsets.UTF_8))) {
            return new Outcome(n, p, policyFile + (link ? headsLink(c, dir, tip) : 0));
        }
        int files = 0;
        short id = tip.board().id();
        for (int level = 0; TileLayout.width(level, 0, n) > 0; level++) {
            List<TileKey> need = new ArrayList<>();
            for (long i = first(level, p); TileLayout.width(level, i, n) > 0; i++) {
                if (!dir.exists(board, TileLayout.tilePath(level, i, TileLayout.width(level, i, n)))) {
                    need.add(new TileKey(level, i));
                }
            }
            for (int from = 0; from < need.size(); from += BATCH) {
                List<TileKey> batch = need.subList(from, Math.min(need.size(), from + BATCH));
                Map<TileKey, byte[]> stored = c.tiles(id, batch);
                for (TileKey k : batch) {
                    int width = TileLayout.width(k.level(), k.index(), n);
                    byte[] hashes = stored.get(k);
                    if (hashes == null || hashes.length < width * 32) {
                        throw new IllegalStateException("tile " + TileLayout.tilePath(k.level(), k.index(), width)
                                + " of board " + board + " is missing or short in the database: run the audit");
                    }
                    dir.write(
                            board, TileLayout.tilePath(k.level(), k.index(), width), Arrays.copyOf(hashes, width * 32));
                    files++;
                }
            }
        }
        files += policyFile;
        files += bundles(c, dir, board, id, p, n, entries);
        dir.write(board, "checkpoint", note.getBytes(StandardCharsets.UTF_8));
        files++;
        if (link) {
            files += headsLink(c, dir, tip); // after the checkpoint: the link's checkpoint is never beyond it
        }
        prune(dir, board, p, n);
        return new Outcome(n, p, files);
    }

    /**
     * The witness rule as a C2SP tlog-policy file, {@code policy} beside the checkpoint (issue 68
     * item 3), written when it differs from the one there: a verifier years later reads the rule
     * beside the proofs ({@code verify-board --policy}). Returns the files written, 0 or 1.
     */
    private static int policy(TlogDirectory dir, String board, String policy) throws IOException {
        if (policy == null) {
            return 0;
        }
        byte[] text = policy.getBytes(StandardCharsets.UTF_8);
        if (Arrays.equals(text, dir.read(board, "policy"))) {
            return 0;
        }
        dir.write(board, "policy", text);
        return 1;
    }

    /**
     * The board's link to the witnessed heads board (HEADS witness mode), as the query API serves it
     * at {@code /boards/{board}/heads-link}, written as {@code heads-link} beside the checkpoint when
     * it changed: a static client proves a record through the heads board with it (the voter page's
     * tiles.js, {@code verify-board --tiles-url}). Returns the files written, 0 or 1.
     */
    private static int headsLink(LogReader c, TlogDirectory dir, BoardTip tip) throws IOException {
        Optional<HeadLinks.Witnessed> w = c.headLink(tip.board(), -1, c::tileSource);
        if (w.isEmpty()) {
            return 0;
        }
        byte[] json = HeadLinkFile.json(tip.board().name(), w.get());
        if (Arrays.equals(json, dir.read(tip.board().name(), HeadLinkFile.NAME))) {
            return 0;
        }
        dir.write(tip.board().name(), HeadLinkFile.NAME, json);
        return 1;
    }

    /**
     * The entry bundles of the records of [p, n) and the signature bundles beside them: those of
     * which no entry holds a personal value in the clear (the committed form: docs/personal-data.md),
     * and the others too when {@code all} (a deployment whose every statement kind is public).
     */
    private static int bundles(LogReader c, TlogDirectory dir, String board, short id, long p, long n, boolean all)
            throws IOException {
        int files = 0;
        for (long i = p / TileLayout.TILE_WIDTH; TileLayout.width(0, i, n) > 0; i++) {
            int width = TileLayout.width(0, i, n);
            long start = i * TileLayout.TILE_WIDTH;
            if (!dir.exists(board, TileLayout.entriesPath(i, width))) {
                List<byte[]> statements = new ArrayList<>(width);
                c.statements(id, start, start + width, (rid, s) -> statements.add(s));
                if (!all && statements.size() == width && CanonicalStatementReader.anyHoldsPersonalValue(statements)) {
                    continue; // observers' only: its signatures need not be read
                }
                List<SignatureBundle.Signatures> signatures = c.signatures(id, start, start + width);
                if (statements.size() != width || signatures.size() != width) {
                    throw new IllegalStateException(
                            "board " + board + " is missing records in bundle " + i + ": run the audit");
                }
                // the signatures first: an entry bundle is never there without them
                dir.write(board, TileLayout.signaturesPath(i, width), SignatureBundle.encode(signatures));
                dir.write(board, TileLayout.entriesPath(i, width), EntryBundle.encode(statements));
                files += 2;
            }
        }
        return files;
    }

    /**
     * Removes the partial tiles (every width) of the tiles that were partial at size {@code p} and
     * are full at {@code n}, and at level 0 their partial entry and signature bundles.
     */
    private static void prune(TlogDirectory dir, String board, long p, long n) throws IOException {
        for (int level = 0; TileLayout.width(level, 0, n) > 0; level++) {
            for (long i = first(level, p); TileLayout.width(level, i, n) == TileLayout.TILE_WIDTH; i++) {
                dir.deletePartials(board, TileLayout.tilePath(level, i, TileLayout.TILE_WIDTH));
                if (level == 0) {
                    dir.deletePartials(board, TileLayout.entriesPath(i, TileLayout.TILE_WIDTH));
                    dir.deletePartials(board, TileLayout.signaturesPath(i, TileLayout.TILE_WIDTH));
                }
            }
        }
    }

    /** The index of the tile at {@code level} holding the first hash a tree of {@code size} has not completed. */
    private static long first(int level, long size) {
        return size >>> (8 * (level + 1));
    }

    private static long size(String board, byte[] note) {
        try {
            return Checkpoint.parse(SignedNote.parse(new String(note, StandardCharsets.UTF_8))
                            .text())
                    .size();
        } catch (ProofException e) {
            throw new IllegalStateException(
                    "the published checkpoint of board " + board + " cannot be read: " + e.getMessage(), e);
        }
    }
}
