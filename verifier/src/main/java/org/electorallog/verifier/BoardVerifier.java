package org.electorallog.verifier;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.TileLayout;

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

    /** Told how far the rebuild is, every few seconds. */
    @FunctionalInterface
    public interface Progress {
        void at(long leaves, long total, double seconds);
    }

    /** Requests in flight while the tree is rebuilt ({@link Level0Prefetch}). */
    static final int FETCHING = 4;

    private final TlogFiles files;
    private final VerifyOptions options;
    private final int depth;
    private final List<String> problems = new ArrayList<>();
    private final EntryChecks entryChecks;
    private long sealedSize = -1;
    /** The size the witness quorum vouches for, on the checkpoint or through the heads board; -1 without a quorum. */
    private long witnessedSize = -1;
    /** What a report shows (entries by hour and kind, the checkpoint history), or null: none asked for. */
    private final BoardObservations observations;

    private BoardVerifier(TlogFiles files, VerifyOptions options, int depth, BoardObservations observations) {
        this.files = files;
        this.observations = observations;
        this.options = options;
        this.depth = depth;
        this.entryChecks = new EntryChecks(
                options.board(),
                options.systemKeys(),
                options.registry(),
                options.logKeys(),
                p -> problem(p.message()));
        if (observations != null) {
            entryChecks.observe(observations);
        }
    }

    /** Verifies the board in {@code files}; I/O failures of the source are thrown, everything else is a problem. */
    public static Verification verify(TlogFiles files, VerifyOptions options, Progress progress) throws IOException {
        return new BoardVerifier(files, options, 0, null).run(progress);
    }

    /**
     * As {@link #verify(TlogFiles, VerifyOptions, Progress)}, gathering what a report shows into
     * {@code observations}: each entry's time and kind, and the board's checkpoint history where the
     * source keeps one, up to {@link BoardObservations#HISTORY_SAMPLES} checkpoints evenly over its
     * sizes, each checked as an older checkpoint (its log signature, its root against the rebuilt
     * tree) and each witness's cosignature on it verified.
     */
    public static Verification verify(
            TlogFiles files, VerifyOptions options, Progress progress, BoardObservations observations)
            throws IOException {
        return new BoardVerifier(files, options, 0, observations).run(progress);
    }

    /** A board a continuation names, {@code depth} links back from the one first verified. */
    static Verification verifyContinued(TlogFiles files, VerifyOptions options, int depth) throws IOException {
        return new BoardVerifier(files, options, depth, null).run((d, t, s) -> {});
    }

    private void problem(String p) {
        if (problems.size() < MAX_PROBLEMS) {
            problems.add(p);
        }
    }

    private Verification run(Progress progress) throws IOException {
        long t0 = System.nanoTime();
        byte[] noteBytes = files.get("checkpoint");
        if (noteBytes == null) {
            problem("there is no checkpoint");
            return result(null, 0, 0, t0);
        }
        String note = new String(noteBytes, StandardCharsets.UTF_8);
        Checkpoint cp;
        try {
            cp = Checkpoint.open(note, options.logKeys());
        } catch (ProofException e) {
            problem("the checkpoint does not verify with the log key: " + e.getMessage());
            return result(null, 0, 0, t0);
        }
        if (options.origin() != null && !options.origin().equals(cp.origin())) {
            problem("the checkpoint's origin is '" + cp.origin() + "', not '" + options.origin() + "'");
        }
        List<String> olderNotes = new ArrayList<>(options.older());
        if (observations != null) {
            observations.origin(cp.origin());
            olderNotes.addAll(
                    CheckpointHistory.read(files, cp, note, options.witnesses(), observations, this::problem));
        }
        TreeMap<Long, byte[]> older = NoteChecks.older(cp, olderNotes, options.logKeys(), this::problem);
        witnessed(note, cp, older);
        TreeCheck tree = new TreeCheck(older, p -> problem(p.message()));
        long entries = 0;
        long lastReport = System.nanoTime();
        long tiles = (cp.size() + TileLayout.TILE_WIDTH - 1) / TileLayout.TILE_WIDTH;
        byte[][] lastLevel0 = {null}; // the only level-0 tile that can be partial, compared at the end
        try (Level0Prefetch ahead = new Level0Prefetch(files, cp.size(), FETCHING)) {
            for (long t = 0; t < tiles && problems.size() < MAX_PROBLEMS; t++) {
                Level0Prefetch.Files f = ahead.next();
                long hashed = level0(t, f, cp, tree);
                if (hashed < 0) {
                    return result(cp, tree.size(), entries, t0);
                }
                lastLevel0[0] = f.tile();
                entries += hashed;
                if (System.nanoTime() - lastReport > 2_000_000_000L) {
                    progress.at(tree.size(), cp.size(), (System.nanoTime() - t0) / 1e9);
                    lastReport = System.nanoTime();
                }
            }
        }
        tree.finish(
                (level, index, width) ->
                        level == 0 ? lastLevel0[0] : files.get(TileLayout.tilePath(level, index, width)),
                cp.size(),
                cp.root(),
                "the checkpoint");
        progress.at(tree.size(), cp.size(), (System.nanoTime() - t0) / 1e9);
        sealedSize = BoardEnds.seal(files.sealedSize(), cp, entries == cp.size(), entryChecks, this::problem);
        if (entryChecks.continuation != null) {
            BoardEnds.link(entryChecks.continuation, options, depth, this::problem);
        }
        return result(cp, tree.size(), entries, t0);
    }

    /**
     * The witnesses' word: the quorum's cosignatures on the checkpoint itself (BOARDS witness mode),
     * else, when the source has one, the heads link (HEADS mode: {@link HeadLinkCheck}), whose board
     * checkpoint joins {@code older} so that the rebuilt tree must meet it.
     */
    private void witnessed(String note, Checkpoint cp, TreeMap<Long, byte[]> older) throws IOException {
        List<String> missing = new ArrayList<>();
        NoteChecks.cosignatures(note, options.witnesses(), options.rule(), missing::add);
        byte[] link = missing.isEmpty() ? null : files.headsLink();
        if (link == null) {
            missing.forEach(this::problem);
            witnessedSize = missing.isEmpty() && options.rule().asksAny() ? cp.size() : -1;
            return;
        }
        Checkpoint linked =
                HeadLinkCheck.check(link, cp, options.logKeys(), options.witnesses(), options.rule(), this::problem);
        if (linked != null) {
            older.put(linked.size(), linked.root());
            witnessedSize = linked.size();
        }
    }

    /**
     * Level-0 index {@code t}: its tile checked for size, its entries hashed and checked (when
     * readable), its leaves appended to the rebuilt tree ({@link TreeCheck}: each compared with the
     * tile, the older checkpoints met as the tree passes their sizes) and every tile the rebuild
     * completed compared. Returns the entries hashed, or -1 when the tile is missing and the rebuild
     * cannot go on.
     */
    private long level0(long t, Level0Prefetch.Files f, Checkpoint cp, TreeCheck tree) throws IOException {
        int width = TileLayout.width(0, t, cp.size());
        byte[] served = f.tile();
        if (served == null || served.length != width * Hashes.HASH_SIZE) {
            problem("tile " + TileLayout.tilePath(0, t, width) + " is "
                    + (served == null ? "missing" : served.length + " bytes, not " + width * Hashes.HASH_SIZE));
            return -1;
        }
        List<byte[]> leaves = leaves(t, width, f);
        for (int i = 0; i < width; i++) {
            if (leaves != null) {
                tree.append(leaves.get(i), served);
            } else {
                tree.append(Arrays.copyOfRange(served, i * 32, i * 32 + 32), null);
            }
        }
        tree.compareFull((level, index, w) -> level == 0 ? served : files.get(TileLayout.tilePath(level, index, w)));
        return leaves == null ? 0 : width;
    }

    /**
     * The leaf hashes of level-0 tile {@code t} from its entry bundle, each entry checked
     * ({@link EntryChecks}); null when the bundle cannot be read (anonymous callers may not), and
     * the tile's own hashes are used.
     */
    private List<byte[]> leaves(long t, int width, Level0Prefetch.Files f) {
        byte[] bundle = f.entries();
        if (bundle == null) {
            return null;
        }
        List<byte[]> entries;
        try {
            entries = EntryBundle.decode(bundle);
        } catch (ProofException e) {
            problem("entry bundle " + TileLayout.entriesPath(t, width) + " cannot be read: " + e.getMessage());
            return null;
        }
        if (entries.size() != width) {
            problem("entry bundle " + TileLayout.entriesPath(t, width) + " holds " + entries.size() + " entries, not "
                    + width);
            return null;
        }
        entryChecks.bundle(
                t * TileLayout.TILE_WIDTH, entries, signatures(t, width, f.signatures()), f.senderVerified());
        List<byte[]> leaves = new ArrayList<>(width);
        for (byte[] entry : entries) {
            leaves.add(Hashes.leafHash(entry));
        }
        return leaves;
    }

    /** The signature bundle beside entry bundle {@code t} (core SignatureBundle), or null when it cannot be read. */
    private List<SignatureBundle.Signatures> signatures(long t, int width, byte[] bundle) {
        if (bundle == null) {
            return null;
        }
        try {
            List<SignatureBundle.Signatures> s = SignatureBundle.decode(bundle);
            if (s.size() == width) {
                return s;
            }
            problem("signature bundle " + TileLayout.signaturesPath(t, width) + " holds " + s.size() + " items, not "
                    + width);
        } catch (ProofException e) {
            problem("signature bundle " + TileLayout.signaturesPath(t, width) + " cannot be read: " + e.getMessage());
        }
        return null;
    }

    private Verification result(Checkpoint cp, long leaves, long entries, long t0) {
        boolean read = entries > 0 && entryChecks.bundlesWithoutSignatures == 0;
        return new Verification(
                cp == null ? 0 : cp.size(),
                cp == null ? null : Base64.getEncoder().encodeToString(cp.root()),
                leaves,
                entries,
                read ? entryChecks.signed : -1,
                read ? entryChecks.unsigned : -1,
                sealedSize,
                witnessedSize,
                entryChecks.continuation == null ? null : entryChecks.continuation.previousBoard(),
                List.copyOf(problems),
                (System.nanoTime() - t0) / 1e9);
    }
}
