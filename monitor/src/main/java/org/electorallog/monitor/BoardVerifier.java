package org.electorallog.monitor;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileTree;

/**
 * {@code electoral-log verify-board}: a whole board checked from the outside (issue 42 item 3),
 * from its files in the C2SP tlog-tiles layout ({@link TlogFiles}: a query API or a directory). The
 * checkpoint's log signature and origin (C2SP signed-note, tlog-checkpoint) and its witness
 * cosignatures against a quorum (tlog-cosignature); every entry it can read hashed into its leaf
 * (RFC 6962 section 2.1) and compared with the level-0 tile; the whole tree rebuilt from the leaves
 * and every hash tile compared with the one served (full tiles as they fill, partial ones at the
 * checkpoint's size); the rebuilt root against the checkpoint's; and each older checkpoint given
 * against the rebuilt tree's root at its size (consistency without trusting a proof).
 */
public final class BoardVerifier {
    /** Problems after which the verification stops collecting (the first ones say enough). */
    static final int MAX_PROBLEMS = 100;

    /**
     * @param logKeys  the log's verifier keys
     * @param origin   the checkpoint origin expected, or null
     * @param witnesses witnesses whose cosignatures count
     * @param quorum   how many of them must have cosigned
     * @param older    older signed checkpoints of the board to check against the rebuilt tree
     */
    public record Options(
            List<NoteVerifier> logKeys,
            String origin,
            List<Cosigner.Verifier> witnesses,
            int quorum,
            List<String> older) {
        public Options {
            logKeys = List.copyOf(logKeys);
            witnesses = List.copyOf(witnesses);
            older = List.copyOf(older);
            if (quorum < 0 || quorum > witnesses.size()) {
                throw new IllegalArgumentException(
                        "the quorum must be between 0 and the " + witnesses.size() + " witness key(s) given");
            }
        }
    }

    /** What was verified: the checkpoint's size and root, leaves and entries checked, and the problems found. */
    public record Result(long size, String root, long leaves, long entries, List<String> problems, double seconds) {
        public boolean verified() {
            return problems.isEmpty();
        }
    }

    /** Told how far the rebuild is, every few seconds. */
    @FunctionalInterface
    public interface Progress {
        void at(long leaves, long total, double seconds);
    }

    private final TlogFiles files;
    private final Options options;
    private final List<String> problems = new ArrayList<>();

    private BoardVerifier(TlogFiles files, Options options) {
        this.files = files;
        this.options = options;
    }

    /** Verifies the board in {@code files}; I/O failures of the source are thrown, everything else is a problem. */
    public static Result verify(TlogFiles files, Options options, Progress progress) throws IOException {
        return new BoardVerifier(files, options).run(progress);
    }

    private Result run(Progress progress) throws IOException {
        long t0 = System.nanoTime();
        byte[] noteBytes = files.get("checkpoint");
        if (noteBytes == null) {
            problems.add("there is no checkpoint");
            return result(null, 0, 0, t0);
        }
        String note = new String(noteBytes, java.nio.charset.StandardCharsets.UTF_8);
        Checkpoint cp;
        try {
            cp = Checkpoint.open(note, options.logKeys());
        } catch (ProofException e) {
            problems.add("the checkpoint does not verify with the log key: " + e.getMessage());
            return result(null, 0, 0, t0);
        }
        if (options.origin() != null && !options.origin().equals(cp.origin())) {
            problems.add("the checkpoint's origin is '" + cp.origin() + "', not '" + options.origin() + "'");
        }
        cosignatures(note);
        TreeMap<Long, byte[]> older = older(cp);
        TileTree tree = TileTree.empty();
        Map<TileKey, Tile> partial = new HashMap<>();
        long entries = 0;
        long lastReport = System.nanoTime();
        long tiles = (cp.size() + TileLayout.TILE_WIDTH - 1) / TileLayout.TILE_WIDTH;
        byte[] lastLevel0 = null; // the only level-0 tile that can be partial, compared at the end
        for (long t = 0; t < tiles && problems.size() < MAX_PROBLEMS; t++) {
            int width = TileLayout.width(0, t, cp.size());
            byte[] served = files.get(TileLayout.tilePath(0, t, width));
            if (served == null || served.length != width * Hashes.HASH_SIZE) {
                problems.add("tile " + TileLayout.tilePath(0, t, width) + " is "
                        + (served == null ? "missing" : served.length + " bytes, not " + width * Hashes.HASH_SIZE));
                return result(cp, tree.size(), entries, t0);
            }
            lastLevel0 = served;
            List<byte[]> leaves = leaves(t, width, served);
            entries += leaves == null ? 0 : width;
            for (int i = 0; i < width; i++) {
                tree.appendLeafHash(leaves != null ? leaves.get(i) : Arrays.copyOfRange(served, i * 32, i * 32 + 32));
                byte[] old = older.get(tree.size());
                if (old != null && !MessageDigest.isEqual(old, tree.root())) {
                    problems.add("the older checkpoint of size " + tree.size()
                            + " is not a prefix of this board: its root differs from the rebuilt tree's at that size");
                }
            }
            for (Tile rebuilt : tree.drainChangedTiles()) {
                if (rebuilt.hashes().length == TileLayout.FULL_TILE_BYTES) {
                    partial.remove(rebuilt.key());
                    compare(rebuilt, rebuilt.key().level() == 0 ? served : null);
                } else {
                    partial.put(rebuilt.key(), rebuilt);
                }
            }
            if (System.nanoTime() - lastReport > 2_000_000_000L) {
                progress.at(tree.size(), cp.size(), (System.nanoTime() - t0) / 1e9);
                lastReport = System.nanoTime();
            }
        }
        for (Tile rebuilt : partial.values()) {
            compare(rebuilt, rebuilt.key().level() == 0 ? lastLevel0 : null);
        }
        if (tree.size() == cp.size() && !MessageDigest.isEqual(tree.root(), cp.root())) {
            problems.add("the tree rebuilt from the leaves has root "
                    + Base64.getEncoder().encodeToString(tree.root()) + " at size " + cp.size()
                    + ", not the checkpoint's " + Base64.getEncoder().encodeToString(cp.root()));
        }
        progress.at(tree.size(), cp.size(), (System.nanoTime() - t0) / 1e9);
        return result(cp, tree.size(), entries, t0);
    }

    /**
     * The leaf hashes of level-0 tile {@code t} from its entry bundle, each checked against the
     * tile; null when the bundle cannot be read (anonymous callers may not), and the tile's own
     * hashes are used.
     */
    private List<byte[]> leaves(long t, int width, byte[] tile) throws IOException {
        byte[] bundle = files.get(TileLayout.entriesPath(t, width));
        if (bundle == null) {
            return null;
        }
        List<byte[]> entries;
        try {
            entries = EntryBundle.decode(bundle);
        } catch (ProofException e) {
            problems.add("entry bundle " + TileLayout.entriesPath(t, width) + " cannot be read: " + e.getMessage());
            return null;
        }
        if (entries.size() != width) {
            problems.add("entry bundle " + TileLayout.entriesPath(t, width) + " holds " + entries.size()
                    + " entries, not " + width);
            return null;
        }
        List<byte[]> leaves = new ArrayList<>(width);
        for (int i = 0; i < width; i++) {
            byte[] leaf = Hashes.leafHash(entries.get(i));
            if (!Arrays.equals(leaf, 0, 32, tile, i * 32, i * 32 + 32) && problems.size() < MAX_PROBLEMS) {
                problems.add("entry " + (t * TileLayout.TILE_WIDTH + i)
                        + " does not hash to its leaf in the level-0 tile: the statement was changed");
            }
            leaves.add(leaf);
        }
        return leaves;
    }

    /** Compares a rebuilt tile with the one served at its width ({@code served}: already read, or null). */
    private void compare(Tile rebuilt, byte[] served) throws IOException {
        int width = rebuilt.hashes().length / Hashes.HASH_SIZE;
        String path = TileLayout.tilePath(rebuilt.key().level(), rebuilt.key().index(), width);
        byte[] got = served != null ? served : files.get(path);
        if (got == null) {
            problems.add("tile " + path + " is missing");
        } else if (!MessageDigest.isEqual(got, rebuilt.hashes()) && problems.size() < MAX_PROBLEMS) {
            problems.add("tile " + path + " differs from the tile rebuilt from the leaves");
        }
    }

    private void cosignatures(String note) {
        SignedNote signed;
        try {
            signed = SignedNote.parse(note);
        } catch (ProofException e) {
            problems.add("the checkpoint is not a signed note: " + e.getMessage());
            return;
        }
        List<String> cosigned = new ArrayList<>();
        for (Cosigner.Verifier w : options.witnesses()) {
            if (signed.signatures().stream().noneMatch(s -> s.name().equals(w.name()))) {
                continue;
            }
            try {
                w.verify(signed);
                cosigned.add(w.name());
            } catch (ProofException e) {
                problems.add("witness " + w.name() + "'s cosignature does not verify: " + e.getMessage());
            }
        }
        if (cosigned.size() < options.quorum()) {
            problems.add("the checkpoint has " + cosigned.size() + " valid cosignature(s) of the witnesses given ("
                    + String.join(", ", cosigned) + "), the quorum is " + options.quorum());
        }
    }

    /** The older checkpoints by size, each verified with the log key and not beyond the latest. */
    private TreeMap<Long, byte[]> older(Checkpoint latest) {
        TreeMap<Long, byte[]> out = new TreeMap<>();
        for (String note : options.older()) {
            try {
                Checkpoint c = Checkpoint.open(note, options.logKeys());
                if (!c.origin().equals(latest.origin())) {
                    problems.add(
                            "an older checkpoint is of origin '" + c.origin() + "', not '" + latest.origin() + "'");
                } else if (c.size() > latest.size()) {
                    problems.add("an older checkpoint has size " + c.size() + ", beyond the latest's " + latest.size()
                            + ": the log was rolled back");
                } else {
                    out.put(c.size(), c.root());
                }
            } catch (ProofException e) {
                problems.add("an older checkpoint does not verify with the log key: " + e.getMessage());
            }
        }
        return out;
    }

    private Result result(Checkpoint cp, long leaves, long entries, long t0) {
        return new Result(
                cp == null ? 0 : cp.size(),
                cp == null ? null : Base64.getEncoder().encodeToString(cp.root()),
                leaves,
                entries,
                List.copyOf(problems),
                (System.nanoTime() - t0) / 1e9);
    }
}
