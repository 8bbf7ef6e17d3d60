package org.electorallog.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.SignedNote;
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
import org.electorallog.verifier.EntryChecks;
import org.electorallog.verifier.Problem;
import org.electorallog.verifier.TreeCheck;

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

    public BoardAuditor(Projection projection, AuditOptions options) {
        this.db = projection;
        this.options = options;
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
        Map<Long, byte[]> roots = openCheckpoints(checkpoints, state.board().origin(), size, result);
        Recount n = new Recount();
        n.boardId = boardId;
        n.tree = new TreeCheck(roots, p -> result.add(findingOf(p.kind()), recordOf(p), p.message()));
        n.entries = new EntryChecks(
                boardName,
                options.systemKeys(),
                null,
                options.logKeys(),
                options.requireSenderSignature(),
                !options.systemKeys().isEmpty(),
                p -> result.add(findingOf(p.kind()), recordOf(p), p.message()));
        long limit = Math.max(size, c.maxId(boardId) + 1);
        Map<TileKey, byte[]> lastTiles = Map.of();
        try (AuditPages pages =
                new AuditPages(db, c.exportSnapshot(), state.board(), limit, size, options.pageSize())) {
            for (AuditPages.Page pg = pages.next(); pg != null; pg = pages.next()) {
                checkPage(pg, boardName, size, n, result);
                if (pg.start() < size) {
                    lastTiles = pg.tiles(); // the page holding the last record: its tiles cover the right edge
                }
                progress.checked.set(Math.min(n.expected(), size));
            }
        }
        while (n.expected() < size) {
            result.add(Finding.Kind.ID_GAP, n.expected(), "record " + n.expected() + " is missing");
            n.missing++;
        }
        try {
            n.tree.finish(stored(lastTiles), size, state.root(), "the board state");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the stored tiles are in memory: never thrown
        }
        roots.keySet().stream()
                .filter(s -> s > n.tree.size())
                .sorted()
                .forEach(s -> result.add(
                        Finding.Kind.CHECKPOINT_MISMATCH,
                        s,
                        "checkpoint at size " + s + " does not have the root of the records at that size: the "
                                + "records end at " + n.tree.size()));
        checkTileWidths(c, boardId, size, result);
        CosignatureChecks.check(
                options.witnesses(), checkpoints, c.cosignatures(boardId), c.witnessedSizes(boardId), result);
        DerivedTableChecks.counters(c, boardId, n.counters, result);
        DerivedTableChecks.hourlyCounts(c, boardId, n.hourly, result);
        DerivedTableChecks.deliveryIds(c, boardId, n, result);
        DerivedTableChecks.seal(state, n.rules.sealIndex(), result);
        DerivedTableChecks.committedFrom(state, n.firstCommitted, result);
        result.finish(size, n.records, checkpoints.size(), (System.nanoTime() - t0) / 1e9);
    }

    /**
     * The audit's finding class of a problem the verifier's checks report (verifier {@link
     * Problem.Kind}): the same check, named as the audit's findings name it.
     */
    static Finding.Kind findingOf(Problem.Kind kind) {
        return switch (kind) {
            case NOT_A_STATEMENT -> Finding.Kind.UNDECODABLE_STATEMENT;
            case OTHER_BOARD -> Finding.Kind.RECORD_FIELD_MISMATCH;
            case AFTER_SEAL -> Finding.Kind.SEAL_MISMATCH;
            case CONTINUATION_NOT_FIRST -> Finding.Kind.CONTINUATION_NOT_FIRST;
            case LOG_STATEMENT -> Finding.Kind.LOG_STATEMENT_MISMATCH;
            case BAD_SIGNATURE, NOT_GRANTED -> Finding.Kind.BAD_SIGNATURE; // no registry is given: no NOT_GRANTED
            case UNSIGNED -> Finding.Kind.UNSIGNED;
            case LEAF -> Finding.Kind.LEAF_MISMATCH;
            case TILE -> Finding.Kind.TILE_MISMATCH;
            case ROOT -> Finding.Kind.ROOT_MISMATCH;
            case CHECKPOINT -> Finding.Kind.CHECKPOINT_MISMATCH;
        };
    }

    private static Long recordOf(Problem p) {
        return p.index() == Problem.NONE ? null : p.index();
    }

    /** The stored tiles of a page as the verifier's tree check reads them, each at the width asked for. */
    private static TreeCheck.Tiles stored(Map<TileKey, byte[]> tiles) {
        return (level, index, width) -> {
            byte[] s = tiles.get(new TileKey(level, index));
            // a stored tile longer than its width is reported by checkTileWidths; here its first hashes count
            return s == null || s.length <= width * Hashes.HASH_SIZE ? s : Arrays.copyOf(s, width * Hashes.HASH_SIZE);
        };
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
            while (n.expected() < id) {
                // keeps the recomputed tree aligned past a missing record by taking the stored hash at its position
                result.add(Finding.Kind.ID_GAP, n.expected(), "record " + n.expected() + " is missing");
                byte[] stored = storedLeaf(storedTiles, n.expected());
                n.tree.append(stored != null ? stored : new byte[Hashes.HASH_SIZE], null);
            }
            Map<String, Object> fields = RecordChecks.check(row, boardName, result, n.counters);
            boolean committed = fields != null && fields.get("format_version") != null;
            if (fields != null) {
                n.entries.entry(id, row.statement(), fields, signatures(row, result), null);
            }
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
            // the board rules (statement BoardRules) over the stored kinds, which the board state and
            // the counts follow: a continuation is only record 0; the seal's place is compared with
            // the board state once the walk ends (DerivedTableChecks.seal). EntryChecks walks the
            // same rules over the statements' own kinds.
            if (n.rules.next(row.kind()) == BoardRules.Breach.CONTINUATION_NOT_FIRST) {
                result.add(
                        Finding.Kind.CONTINUATION_NOT_FIRST,
                        id,
                        "record " + id + " is a LOG_CONTINUATION, which only a board's record 0 may be");
            }
            if (row.statementMillis() != null) {
                n.hourly.merge(HourlyCounts.keyOf(row.statementMillis(), row.kind()), 1L, Long::sum);
            }
            n.tree.append(
                    Hashes.leafHash(row.statement()), storedTiles.get(new TileKey(0, id / TileLayout.TILE_WIDTH)));
            n.records++;
        }
        try {
            n.tree.compareFull(stored(storedTiles));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the stored tiles are in memory: never thrown
        }
    }

    /** The record's stored signatures as the verifier's entry checks take them; null (reported) when one is no Ed25519 signature. */
    private static SignatureBundle.Signatures signatures(AuditRow row, AuditResult result) {
        try {
            return new SignatureBundle.Signatures(0, row.senderSignature(), row.systemSignature());
        } catch (IllegalArgumentException e) {
            result.add(Finding.Kind.BAD_SIGNATURE, row.id(), "record " + row.id() + ": " + e.getMessage());
            return null;
        }
    }

    private static byte[] storedLeaf(Map<TileKey, byte[]> tiles, long id) {
        byte[] tile = tiles.get(new TileKey(0, id / 256));
        int pos = (int) (id % 256);
        if (tile == null || tile.length < (pos + 1) * 32) {
            return null;
        }
        return Arrays.copyOfRange(tile, pos * 32, pos * 32 + 32);
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

    /**
     * Every stored checkpoint: its note signed with the log's key, of the board's origin, its row
     * what its note says and not beyond the board's size. Returns the roots of those the tree check
     * must meet, by size.
     */
    private Map<Long, byte[]> openCheckpoints(
            List<CheckpointRow> checkpoints, String origin, long size, AuditResult result) {
        Map<Long, byte[]> roots = new HashMap<>();
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
                if (s > size) {
                    result.add(
                            Finding.Kind.CHECKPOINT_MISMATCH,
                            s,
                            "checkpoint at size " + s + " is beyond the board's size " + size);
                } else {
                    roots.put(s, cp.root());
                }
            } catch (ProofException e) {
                result.add(Finding.Kind.CHECKPOINT_MISMATCH, s, "checkpoint at size " + s + ": " + e.getMessage());
            }
        }
        return roots;
    }
}
