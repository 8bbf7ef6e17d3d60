package org.electorallog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.function.Function;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileSource;
import org.electorallog.statement.PersonalOpenings.Opening;

/**
 * The projection's reads, inside one read-only snapshot (or one autocommitted statement) that a
 * {@link Projection} opened: what the query API, the publisher and the commands read, typed, the
 * SQL in the table classes this delegates to. Modelled on Tessera's {@code LogReader}
 * (ReadCheckpoint, ReadTile, ReadEntryBundle). A reader lives only as long as the work it was
 * given; failures are {@link ProjectionException}s.
 */
public final class LogReader {
    private final Connection c;
    /** The audit's page statement, prepared once for the reader's pages ({@link #auditPage}). */
    private PreparedStatement auditPage;

    LogReader(Connection c) {
        this.c = c;
    }

    /** Closes what the reader prepared; its snapshot ends with the work. */
    void close() throws SQLException {
        if (auditPage != null) {
            auditPage.close();
        }
    }

    // boards

    /** The board named {@code name}. */
    public Optional<BoardRow> board(String name) {
        return ProjectionException.wrap("reading board " + name, () -> Boards.find(c, name));
    }

    /** A board's tree state (size, root, last record time, seal). */
    public Optional<BoardState> state(String name) {
        return ProjectionException.wrap("reading the state of board " + name, () -> Boards.state(c, name));
    }

    /** Every board's state, by name. */
    public List<BoardState> boards() {
        return ProjectionException.wrap("listing boards", () -> Boards.all(c));
    }

    /** A board's size: the records its tree holds. */
    public long size(short boardId) {
        return ProjectionException.wrap("reading a board's size", () -> Boards.size(c, boardId));
    }

    /** The board with its size and latest checkpoint, in one statement ({@link BoardTips#TIP_SQL}). */
    public Optional<BoardTip> tip(String name) {
        return ProjectionException.wrap("reading the tip of board " + name, () -> BoardTips.tip(c, name));
    }

    /** The board with its size and latest witnessed checkpoint, in one statement. */
    public Optional<BoardTip> witnessedTip(String name) {
        return ProjectionException.wrap(
                "reading the witnessed tip of board " + name, () -> BoardTips.witnessedTip(c, name));
    }

    /**
     * The board's tip and the tiles on the paths of {@code leaves} and of its checkpoint's right
     * edge, in one statement ({@link BoardTips#PROOF_TIP_SQL}).
     */
    public Optional<ProofTip> proofTip(String name, long... leaves) {
        return ProjectionException.wrap(
                "reading the proof tip of board " + name, () -> BoardTips.proofTip(c, name, leaves));
    }

    // tiles and checkpoints (C2SP tlog-tiles)

    /** The stored tiles among {@code keys} (a missing tile is absent from the map). */
    public Map<TileKey, byte[]> tiles(short boardId, Collection<TileKey> keys) {
        return ProjectionException.wrap("reading tiles", () -> Tiles.read(c, boardId, keys));
    }

    /** One stored tile's hashes. */
    public Optional<byte[]> tile(short boardId, int level, long index) {
        return ProjectionException.wrap("reading a tile", () -> Tiles.one(c, boardId, level, index));
    }

    /** A board's tiles as a proof builder reads them, inside this snapshot. */
    public TileSource tileSource(short boardId) {
        return Tiles.source(c, boardId);
    }

    /** A board's latest checkpoint. */
    public Optional<CheckpointRow> latestCheckpoint(short boardId) {
        return ProjectionException.wrap("reading the latest checkpoint", () -> Checkpoints.latest(c, boardId));
    }

    /** A board's first checkpoint at or past {@code size}, with its cosignatures ({@link Checkpoints#COSIGNED_FROM_SQL}). */
    public Optional<CheckpointRow> cosignedCheckpointFrom(short boardId, long size) {
        return ProjectionException.wrap("reading a checkpoint", () -> Checkpoints.cosignedFrom(c, boardId, size));
    }

    /** A board's newest checkpoint at or below {@code size}. */
    public Optional<CheckpointRow> checkpointAtOrBelow(short boardId, long size) {
        return ProjectionException.wrap("reading a checkpoint", () -> Checkpoints.atOrBelow(c, boardId, size));
    }

    /**
     * The newest link of {@code board} to the witnessed heads board covering {@code record} (-1:
     * any), with the entry's inclusion proof from {@code headsTiles} ({@link HeadLinks#witnessed}).
     */
    public Optional<HeadLinks.Witnessed> headLink(BoardRow board, long record, Function<Short, TileSource> headsTiles) {
        return ProjectionException.wrap(
                "reading the heads link of board " + board.name(),
                () -> HeadLinks.witnessed(c, board, record, headsTiles));
    }

    /** {@link #headLink(BoardRow, long, Function)} in the witnessed heads tip the caller read already. */
    public Optional<HeadLinks.Witnessed> headLink(
            Optional<BoardTip> heads, BoardRow board, long record, Function<Short, TileSource> headsTiles) {
        return ProjectionException.wrap(
                "reading the heads link of board " + board.name(),
                () -> HeadLinks.witnessed(c, heads, board, record, headsTiles));
    }

    /** Every board's latest checkpoint and last record time, the heads board's {@code heads} aside. */
    public List<HeadLinks.Latest> latestHeads(String heads) {
        return ProjectionException.wrap("reading the boards' heads", () -> HeadLinks.latest(c, heads));
    }

    // records

    /** The canonical statements of records [from, to) in ID order, until the sink says stop. */
    public void statements(short boardId, long from, long to, StatementSink sink) {
        ProjectionException.wrap("reading statements", () -> {
            RecordStatements.statements(c, boardId, from, to, sink::accept);
            return null;
        });
    }

    /** What a statement pass sees: a record's ID and canonical statement. */
    @FunctionalInterface
    public interface StatementSink {
        /** Returns false to stop the pass. */
        boolean accept(long id, byte[] statement);
    }

    /** The signatures of records [from, to), for a signature bundle. */
    public List<SignatureBundle.Signatures> signatures(short boardId, long from, long to) {
        return ProjectionException.wrap("reading signatures", () -> RecordSignatures.of(c, boardId, from, to));
    }

    /** One record with its sender key. */
    public Optional<StoredRecord> record(short boardId, long id) {
        return ProjectionException.wrap("reading record " + id, () -> Records.one(c, boardId, id));
    }

    /** The openings of one record, values included (committed form); empty when it has none. */
    public List<Opening> openings(short boardId, long recordId) {
        return ProjectionException.wrap(
                "reading the openings of record " + recordId, () -> StoredOpenings.of(c, boardId, recordId));
    }

    /**
     * The canonical statements of records [from, to) in ID order with the openings still held of
     * each, values included (an export's personal view).
     */
    public void openedStatements(short boardId, long from, long to, OpenedSink sink) {
        ProjectionException.wrap("reading statements with their openings", () -> {
            StoredOpenings.statements(c, boardId, from, to, sink::accept);
            return null;
        });
    }

    /** What an opened pass sees: a record's ID, its canonical statement and its openings (empty: none held). */
    @FunctionalInterface
    public interface OpenedSink {
        void accept(long id, byte[] statement, List<Opening> openings);
    }

    /** A voter's records of a kind in an election, newest first ({@link Records#BALLOTS_SQL}). */
    public List<Records.Ballot> ballots(
            short boardId, short kind, String userId, String electionId, String ballotId, long beforeId, int limit) {
        return ProjectionException.wrap(
                "locating ballots",
                () -> Records.ballots(c, boardId, kind, userId, electionId, ballotId, beforeId, limit));
    }

    /** The first ID projected at or after {@code at} (the board's size when none). */
    public long firstCreatedAtOrAfter(BoardRow b, Instant at, long size) {
        return ProjectionException.wrap(
                "searching records by projection time", () -> Records.firstCreatedAtOrAfter(c, b, at, size));
    }

    /** A page of an admin listing ({@link ListingSql#page}). */
    public List<StoredRecord> list(String board, BoundStatement listing) {
        return ProjectionException.wrap("listing records", () -> Records.list(c, board, listing));
    }

    /** The number a count statement ({@link ListingSql#cappedCount}) returns. */
    public long count(BoundStatement count) {
        return ProjectionException.wrap("counting records", () -> count.count(c));
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of {@code statement} in this snapshot. */
    public String explain(BoundStatement statement) {
        return ProjectionException.wrap("explaining a statement", () -> statement.explain(c));
    }

    /** The ID of the cast vote whose leaf hash is {@code leafHash} ({@link RecordStatements#BY_LEAF_HASH_SQL}). */
    public Optional<Long> idByLeafHash(short boardId, byte[] leafHash) {
        return ProjectionException.wrap(
                "finding a record by leaf hash", () -> RecordStatements.idByLeafHash(c, boardId, leafHash));
    }

    /** Where a delivery ID was projected on a board: its record and leaf hash. */
    public Optional<Deliveries.Projected> delivery(String board, String deliveryId) {
        return ProjectionException.wrap("looking up a delivery ID", () -> Deliveries.projected(c, board, deliveryId));
    }

    // counters and senders

    /** A board's counters, every kind and election. */
    public List<Counters.Row> counters(short boardId) {
        return ProjectionException.wrap("reading counters", () -> Counters.rows(c, boardId));
    }

    /** The sum of a board's counters {@code keys}. */
    public long counterSum(short boardId, List<CounterKey> keys) {
        return ProjectionException.wrap("summing counters", () -> Counters.sum(c, boardId, keys));
    }

    /** The interned ID of a sender key. */
    public Optional<Integer> senderId(byte[] publicKey) {
        return ProjectionException.wrap("finding a sender", () -> Senders.idOf(c, publicKey));
    }

    // the audit's reads (a board checked whole in one snapshot, its pages on a second connection)

    /** Exports this snapshot for another connection to join ({@link Projection#readIn}). */
    public String exportSnapshot() {
        return ProjectionException.wrap("exporting the snapshot", () -> Snapshot.export(c));
    }

    /** Every checkpoint of a board, by size. */
    public List<CheckpointRow> checkpoints(short boardId) {
        return ProjectionException.wrap("reading checkpoints", () -> Checkpoints.all(c, boardId));
    }

    /** The sizes of a board's witnessed checkpoints. */
    public SortedSet<Long> witnessedSizes(short boardId) {
        return ProjectionException.wrap("reading witnessed sizes", () -> Checkpoints.witnessedSizes(c, boardId));
    }

    /** A board's cosignatures by checkpoint size. */
    public SortedMap<Long, List<Cosignatures.Stored>> cosignatures(short boardId) {
        return ProjectionException.wrap("reading cosignatures", () -> Cosignatures.ofBoard(c, boardId));
    }

    /** The highest record ID of a board, or -1 when it has none. */
    public long maxId(short boardId) {
        return ProjectionException.wrap("reading the highest record ID", () -> Records.maxId(c, boardId));
    }

    /** The stored tiles that are not full-width or lie beyond {@code size} (the audit's width check). */
    public List<Tiles.StoredWidth> tilesNotFullOrBeyond(short boardId, long size) {
        return ProjectionException.wrap("reading tile widths", () -> Tiles.notFullOrBeyond(c, boardId, size));
    }

    /** The stored tiles covering records [start, end) at every level of a tree of {@code size}. */
    public Map<TileKey, byte[]> coveringTiles(short boardId, long start, long end, long size) {
        return ProjectionException.wrap("reading tiles", () -> Tiles.covering(c, boardId, start, end, size));
    }

    /** Every sender key by its interned ID. */
    public Map<Integer, byte[]> senders() {
        return ProjectionException.wrap("reading sender keys", () -> Senders.all(c));
    }

    /** One audit page: records [start, end) of {@code board} ({@link Records#AUDIT_PAGE_SQL}). */
    public List<AuditRow> auditPage(BoardRow board, long start, long end, Map<Integer, byte[]> senders) {
        return ProjectionException.wrap("reading an audit page", () -> {
            if (auditPage == null) {
                auditPage = c.prepareStatement(Records.AUDIT_PAGE_SQL);
            }
            return Records.auditPage(auditPage, board, start, end, senders);
        });
    }

    /** A board's hourly counts. */
    public Map<HourlyCounts.Key, Long> hourlyCounts(short boardId) {
        return ProjectionException.wrap("reading hourly counts", () -> HourlyCounts.rows(c, boardId));
    }

    /** Whether delivery IDs are held unique board-wide (V15's deliveries table). */
    public boolean deliveriesUniquelyIndexed() {
        return ProjectionException.wrap("reading the deliveries' index", () -> Deliveries.uniquelyIndexed(c));
    }

    /** The fingerprint of a board's delivery keys (count and sum). */
    public Deliveries.Fingerprint deliveryFingerprint(short boardId) {
        return ProjectionException.wrap(
                "reading the deliveries' fingerprint", () -> Deliveries.fingerprint(c, boardId));
    }

    /** Every delivery ID a board holds more than once, to {@code sink} (a sorted pass over the records). */
    public void repeatedDeliveryIds(short boardId, Records.RepeatSink sink) {
        ProjectionException.wrap("looking for repeated delivery IDs", () -> {
            Records.repeatedDeliveryIds(c, boardId, sink);
            return null;
        });
    }

    /** Every delivery ID a board holds, in record order (a repeat would show twice). */
    public List<String> deliveryIds(short boardId) {
        return ProjectionException.wrap("reading delivery IDs", () -> Records.deliveryIds(c, boardId));
    }

    /** The largest size any witness cosigned on a board (0 for none). */
    public long largestCosignedSize(short boardId) {
        return ProjectionException.wrap("reading cosigned sizes", () -> Cosignatures.largestSize(c, boardId));
    }

    // the load-test harness's reads (perf)

    /** The record at or after {@code id} with its voter's ballot ({@link RecordSamples#SAMPLE_SQL}). */
    public Optional<RecordSamples.Sample> sample(short boardId, long id) {
        return ProjectionException.wrap("sampling a record", () -> RecordSamples.sample(c, boardId, id));
    }

    /** The records from {@code fromId} on whose user starts with {@code prefix} (a burst's). */
    public List<RecordSamples.UserRecord> byUserPrefix(short boardId, long fromId, String prefix) {
        return ProjectionException.wrap(
                "reading a burst's records", () -> RecordSamples.byUserPrefix(c, boardId, fromId, prefix));
    }

    /**
     * One export batch from {@code from} ({@link RecordExports#exportBatch}); the ID the next batch
     * starts from, or -1 after the last (the perf probe times one, as an export runs it).
     */
    public <E extends Exception> long exportBatch(
            short boardId,
            String board,
            long from,
            long size,
            int batch,
            RecordExports.ExportShape shape,
            RecordExports.RecordSink<E> sink)
            throws E {
        try {
            return RecordExports.exportBatch(c, boardId, board, from, size, batch, shape, sink);
        } catch (SQLException e) {
            throw new ProjectionException("exporting board " + board, e);
        }
    }

    /** The schema version the projection is at (Flyway's history; 0 before any migration). */
    public int schemaVersion() {
        return ProjectionException.wrap("reading the schema version", () -> Migrations.appliedVersion(c));
    }
}
