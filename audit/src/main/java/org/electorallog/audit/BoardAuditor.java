package org.electorallog.audit;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.statement.BoardRules;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.store.AuditRow;
import org.electorallog.store.BoardState;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.HourlyCounts;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;
import org.electorallog.store.Tiles;

/**
 * The full audit of one board (BRIEF invariant 5), in one read-only REPEATABLE READ snapshot, in
 * linear time: keyset pages of records bounded on both sides of the ID range; for each record, its
 * stored columns against its canonical bytes, its signatures, and its leaf against the stored level-0
 * tile; every tile recomputed and compared; the root and size; every stored checkpoint (signature,
 * origin, root at its size) and its stored witness cosignatures ({@link CosignatureChecks}); the
 * counters against the rows; gap-free IDs and unique delivery IDs.
 */
public final class BoardAuditor {
    private final Projection db;
    private final AuditOptions options;
    private final RecordChecks recordChecks;

    public BoardAuditor(Projection projection, AuditOptions options) {
        this.db = projection;
        this.options = options;
        this.recordChecks = new RecordChecks(options);
    }

    /** Progress of a running audit, readable from other threads. */
    public static final class Progress {
        final AtomicLong checked = new AtomicLong();
        final AtomicLong total = new AtomicLong(-1);

        public long checked() {
            return checked.get();
        }

        /** The board's size once known, else -1. */
        public long total() {
            return total.get();
        }
    }

    /**
     * Audits a board. Pages are read on a second connection that imports the first one's snapshot
     * ({@link AuditPages}), one page ahead of the checks; the projection's pool must lend two
     * connections.
     */
    public AuditResult audit(String boardName, Progress progress) {
        long t0 = System.nanoTime();
        AuditResult result = new AuditResult(boardName);
        db.read(c -> {
            run(c, boardName, progress, result, t0);
            return null;
        });
        return result;
    }

    private void run(LogReader c, String boardName, Progress progress, AuditResult result, long t0) {
        BoardState state = c.state(boardName)
                .orElseThrow(() -> new IllegalArgumentException("there is no board named '" + boardName + "'"));
        short boardId = state.board().id();
        long size = state.size();
        progress.total.set(size);
        if (options.logKeys().isEmpty()) {
            result.add(
                    Finding.Kind.SIGNATURES_NOT_CHECKED,
                    null,
                    "no log verifier key was given: the checkpoints' "
                            + "signatures were not checked, so this audit cannot be clean (give the log's verifier key)");
        }
        List<CheckpointRow> checkpoints = c.checkpoints(boardId);
        Recount n = new Recount();
        n.boardId = boardId;
        checkpoints.forEach(cp -> n.wanted.add(cp.size()));
        long limit = Math.max(size, c.maxId(boardId) + 1);
        try (AuditPages pages =
                new AuditPages(db, c.exportSnapshot(), state.board(), limit, size, options.pageSize())) {
            for (AuditPages.Page pg = pages.next(); pg != null; pg = pages.next()) {
                checkPage(pg, boardName, size, n, result);
                progress.checked.set(Math.min(n.expected, size));
            }
        }
        while (n.expected < size) {
            result.add(Finding.Kind.ID_GAP, n.expected, "record " + n.expected + " is missing");
            n.expected++;
        }
        if (n.tree.size() == size && !MessageDigest.isEqual(n.tree.root(), state.root())) {
            result.add(
                    Finding.Kind.ROOT_MISMATCH,
                    null,
                    "the stored root at size " + size + " is " + Hex.encode(state.root()) + ", the records give "
                            + Hex.encode(n.tree.root()));
        }
        checkTileWidths(c, boardId, size, result);
        checkCheckpoints(checkpoints, n.rootsAt, state.board().origin(), size, result);
        CosignatureChecks.check(
                options.witnesses(), checkpoints, c.cosignatures(boardId), c.witnessedSizes(boardId), result);
        DerivedTableChecks.counters(c, boardId, n.counters, result);
        DerivedTableChecks.hourlyCounts(c, boardId, n.hourly, result);
        DerivedTableChecks.deliveryIds(c, boardId, n, result);
        DerivedTableChecks.seal(state, n.rules.sealIndex(), result);
        DerivedTableChecks.committedFrom(state, n.firstCommitted, result);
        result.finish(size, n.records, checkpoints.size(), (System.nanoTime() - t0) / 1e9);
    }

    private void checkPage(AuditPages.Page pg, String boardName, long size, Recount n, AuditResult result) {
        Map<TileKey, byte[]> storedTiles = pg.tiles();
        for (AuditRow row : pg.rows()) {
            long id = row.id();
            n.delivery(row);
            if (id >= size) {
                result.add(Finding.Kind.EXTRA_RECORD, id, "record " + id + " is at or above the board's size " + size);
                continue;
            }
            while (n.expected < id) {
                // keeps the recomputed tree aligned past a missing record by taking the stored hash at its position
                result.add(Finding.Kind.ID_GAP, n.expected, "record " + n.expected + " is missing");
                byte[] stored = storedLeaf(storedTiles, n.expected);
                n.append(stored != null ? stored : new byte[Hashes.HASH_SIZE]);
            }
            boolean committed = recordChecks.check(row, boardName, result, n.counters);
            if (committed && n.firstCommitted < 0) {
                n.firstCommitted = id;
            } else if (!committed
                    && n.firstCommitted >= 0
                    && CanonicalStatementReader.holdsPersonalValue(row.statement())) {
                result.add(
                        Finding.Kind.COMMITTED_FORM_MISMATCH,
                        id,
                        "record " + id
                                + " holds a personal value in the clear, on a board in the committed form since record "
                                + n.firstCommitted + " (the projector keeps none there)");
            }
            // the board rules (statement BoardRules): a continuation is only record 0; the seal's
            // place is compared with the board state once the walk ends (DerivedTableChecks.seal)
            if (n.rules.next(row.kind()) == BoardRules.Breach.CONTINUATION_NOT_FIRST) {
                result.add(
                        Finding.Kind.CONTINUATION_NOT_FIRST,
                        id,
                        "record " + id + " is a LOG_CONTINUATION, which only a board's record 0 may be");
            }
            if (row.statementMillis() != null) {
                n.hourly.merge(HourlyCounts.keyOf(row.statementMillis(), row.kind()), 1L, Long::sum);
            }
            byte[] leaf = Hashes.leafHash(row.statement());
            byte[] stored = storedLeaf(storedTiles, id);
            if (stored != null && !MessageDigest.isEqual(stored, leaf)) {
                result.add(
                        Finding.Kind.LEAF_MISMATCH,
                        id,
                        "the leaf of record " + id + " differs from the stored tile hash at its position");
            }
            n.append(leaf);
            n.records++;
        }
        compareTiles(n.tree.drainChangedTiles(), storedTiles, result);
    }

    private static byte[] storedLeaf(Map<TileKey, byte[]> tiles, long id) {
        byte[] tile = tiles.get(new TileKey(0, id / 256));
        int pos = (int) (id % 256);
        if (tile == null || tile.length < (pos + 1) * 32) {
            return null;
        }
        return Arrays.copyOfRange(tile, pos * 32, pos * 32 + 32);
    }

    private static void compareTiles(List<Tile> recomputed, Map<TileKey, byte[]> stored, AuditResult result) {
        for (Tile t : recomputed) {
            byte[] s = stored.get(t.key());
            String path = TileLayout.tilePath(t.key().level(), t.key().index(), t.width());
            long firstRecord = t.key().index() * 256L << (8 * t.key().level());
            if (s == null) {
                result.add(Finding.Kind.TILE_MISMATCH, firstRecord, "tile " + path + " is missing");
            } else if (s.length < t.hashes().length
                    || !MessageDigest.isEqual(Arrays.copyOf(s, t.hashes().length), t.hashes())) {
                result.add(
                        Finding.Kind.TILE_MISMATCH,
                        firstRecord,
                        "tile " + path + " differs from the tile recomputed from the records");
            }
        }
    }

    /** Every stored tile must exist at this size with exactly its width: no extra tiles, no over-long ones. */
    private static void checkTileWidths(LogReader c, short boardId, long size, AuditResult result) {
        for (Tiles.StoredWidth t : c.tilesNotFullOrBeyond(boardId, size)) {
            int width = TileLayout.width(t.key().level(), t.key().index(), size);
            if (width * 32 != t.bytes()) {
                result.add(
                        Finding.Kind.TILE_MISMATCH,
                        null,
                        "tile " + t.key().level() + "/" + t.key().index() + " holds " + t.bytes() / 32
                                + " hashes; at size " + size + " it must hold " + width);
            }
        }
    }

    private void checkCheckpoints(
            List<CheckpointRow> checkpoints, Map<Long, byte[]> rootsAt, String origin, long size, AuditResult result) {
        for (CheckpointRow row : checkpoints) {
            long s = row.size();
            try {
                Checkpoint cp = options.logKeys().isEmpty()
                        ? Checkpoint.parse(SignedNote.parse(row.note()).text())
                        : Checkpoint.open(row.note(), options.logKeys());
                if (!cp.origin().equals(origin)) {
                    result.add(
                            Finding.Kind.CHECKPOINT_MISMATCH,
                            s,
                            "checkpoint at size " + s + " has origin '" + cp.origin() + "'");
                }
                if (cp.size() != s || !MessageDigest.isEqual(cp.root(), row.root())) {
                    result.add(
                            Finding.Kind.CHECKPOINT_MISMATCH,
                            s,
                            "checkpoint row at size " + s + " disagrees with its note");
                }
                byte[] actual = rootsAt.get(s);
                if (s > size) {
                    result.add(
                            Finding.Kind.CHECKPOINT_MISMATCH,
                            s,
                            "checkpoint at size " + s + " is beyond the board's size " + size);
                } else if (actual == null || !MessageDigest.isEqual(actual, cp.root())) {
                    result.add(
                            Finding.Kind.CHECKPOINT_MISMATCH,
                            s,
                            "checkpoint at size " + s + " does not have the root of the records at that size");
                }
            } catch (ProofException e) {
                result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s + ": " + e.getMessage());
            }
        }
    }
}
