package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.electorallog.core.Hashes;
import org.electorallog.core.TileTree;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardState;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Deliveries;
import org.electorallog.store.HourlyCounts;
import org.electorallog.store.LogWriter;
import org.electorallog.store.RecordRow;

/**
 * Writes one board's share of a batch in the batch transaction: drops repeated delivery IDs, appends
 * the records to the board's tree, and stores the records, the changed tiles, the counters and the
 * board state. A board not yet held in memory is loaded ({@link #load}); a board not stored yet is
 * created by its first statement that the sender registry allows, never by a refused one.
 */
final class BoardWriter {
    /**
     * Batches that look their delivery IDs up before writing once a batch has met a stored one
     * (decision 83): a producer that repeats one statement often repeats others soon after, and a
     * batch written twice costs more than its lookup.
     */
    static final int LOOKUP_BATCHES_AFTER_A_STORED_REPEAT = 100;

    private final String originPrefix;
    private final SignaturePolicy policy;
    /** Batches still to look stored delivery IDs up first; 0: write first, let the unique index tell. */
    private int lookUpFirst;
    /** Whether the current batch looks stored delivery IDs up before it writes. */
    private boolean lookingUp;

    BoardWriter(String originPrefix, SignaturePolicy policy) {
        this.originPrefix = originPrefix;
        this.policy = policy;
    }

    /**
     * An event left out for its content (a delivery-key collision, or a sender the registry does not
     * allow), with the reason for its dead letter.
     */
    record Refused(PendingEvent event, BadEventException.Reason reason, String message) {}

    /**
     * What one board's share did, and the board (null when it neither existed nor was created);
     * {@code sealedNow} when this share sealed it.
     */
    record Written(BoardProjection board, int written, int duplicates, List<Refused> refused, boolean sealedNow) {}

    /**
     * The board as stored (its tree's right edge restored from the stored tiles and checked against
     * the stored root), or empty when there is no board of that name yet.
     */
    Optional<BoardProjection> load(LogWriter c, String name) {
        BoardState s = c.reads().state(name).orElse(null);
        if (s == null) {
            return Optional.empty();
        }
        short id = s.board().id();
        TileTree tree = TileTree.restore(
                s.size(),
                c.reads()
                        .tiles(
                                id,
                                TileTree.edgeTiles(s.size()).stream()
                                        .map(TileTree.EdgeTile::key)
                                        .toList()));
        if (!MessageDigest.isEqual(tree.root(), s.root())) {
            throw new ProjectionStoppedException("board " + name + ": root recomputed from stored tiles at size "
                    + s.size() + " differs from the stored root; the projection is damaged: run "
                    + "`electoral-log audit` and rebuild the projection from the topic (`electoral-log rebuild`)");
        }
        BoardProjection board = new BoardProjection(
                id,
                name,
                s.board().origin(),
                tree,
                s.lastCreatedMillis() == null ? Long.MIN_VALUE : s.lastCreatedMillis());
        board.sealedMillis = s.sealedMillis();
        board.committedFrom = s.committedFrom();
        return Optional.of(board);
    }

    /** A batch begins: it looks stored delivery IDs up first while a recent batch met one (decision 83). */
    void batchBegan() {
        lookingUp = lookUpFirst > 0;
        if (lookingUp) {
            lookUpFirst--;
        }
    }

    /**
     * Whether a failed batch failed because it wrote, without looking it up, a delivery ID already
     * stored on its board ({@link Deliveries#isStoredKey}). If so, the batch is to be written
     * again (after its rollback), and it and the next {@link #LOOKUP_BATCHES_AFTER_A_STORED_REPEAT}
     * batches look their IDs up first, so that the repeat is dropped and counted. A batch that
     * looked its IDs up and still met the index is not this case: that is the content's fault.
     */
    boolean metStoredRepeat(Throwable failure) {
        if (lookingUp || !Deliveries.isStoredKey(failure)) {
            return false;
        }
        lookUpFirst = 1 + LOOKUP_BATCHES_AFTER_A_STORED_REPEAT; // the batch written again, then the next ones
        return true;
    }

    /**
     * Writes the board's events (in offset order); the tree in {@code board} advances even if the
     * transaction later fails.
     *
     * <p>Repeats of a delivery ID inside the batch are dropped here. Repeats of a stored one are rare
     * (a producer resending after a timeout), so unless a recent batch met one, the records are
     * written without asking PostgreSQL first: the primary key of deliveries refuses a stored
     * one, the transaction fails with {@link Deliveries#isStoredKey}, and the caller writes the
     * batch again, which then looks the IDs up ({@link #metStoredRepeat}). The lookup was a twelfth
     * of the batch writer's time in a 2M fill (decision 83).
     */
    Written write(LogWriter c, String name, BoardProjection stored, List<PendingEvent> events) {
        List<Refused> refused = new ArrayList<>();
        // the registry first: a refused statement must not take a delivery ID from a later good one,
        // nor create its board (issue 41: refused traffic would use up the board IDs)
        List<PendingEvent> permitted =
                policy.registryCovers(name) ? SenderRegistry.allowed(c, name, events, refused) : events;
        if (stored == null && permitted.isEmpty()) {
            return new Written(null, 0, 0, refused, false);
        }
        BoardProjection board =
                stored != null ? stored : create(c, name, permitted.get(0).kafkaTimestamp());
        // on a sealed board stored delivery IDs are looked up first: a redelivered statement of
        // before the seal (the seal itself among them) is a duplicate, not a refused append
        List<PendingEvent> unique = dropRepeated(c, board, permitted, refused, lookingUp || board.sealedMillis != null);
        int dropped = events.size() - unique.size() - refused.size();
        boolean wasSealed = board.sealedMillis != null;
        List<PendingEvent> fresh = BoardForm.keepCommitted(
                board, ErasedKeys.withoutErased(c, BoardOrder.keep(board, unique, refused)), refused);
        if (!fresh.isEmpty()) {
            List<RecordRow> rows = insertRecords(c, board, fresh);
            c.writeTiles(board.boardId, board.tree.drainChangedTiles());
            c.addCounters(board.boardId, counterDeltas(fresh));
            c.addHourlyCounts(board.boardId, hourlyDeltas(rows));
        }
        boolean sealedNow = !wasSealed && BoardOrder.sealedBy(board, fresh);
        c.updateBoard(
                board.boardId,
                board.tree.size(),
                board.tree.root(),
                board.lastCreatedMillis == Long.MIN_VALUE ? null : board.lastCreatedMillis,
                dropped,
                board.sealedMillis,
                board.committedFrom);
        return new Written(board, fresh.size(), dropped, refused, sealedNow);
    }

    /** A new board with an empty tree, created at the time of its first kept statement. */
    private BoardProjection create(LogWriter c, String name, long firstTimestamp) {
        BoardRow b = c.createBoard(name, originPrefix + name, firstTimestamp, Hashes.emptyRoot());
        return new BoardProjection(b.id(), name, b.origin(), TileTree.empty(), Long.MIN_VALUE);
    }

    /**
     * Keeps the first copy of each delivery ID: drops repeats inside the batch and, with {@code
     * lookUp}, IDs already stored. Stored IDs are found by their key (the primary key of
     * deliveries, V15) and then compared in full. A later delivery ID whose key equals an earlier
     * one's (a 2^56-work collision) cannot be stored beside it: it is refused (dead-lettered with
     * both IDs named), never silently dropped as a duplicate, and the board goes on.
     *
     * <p>A repeat is a duplicate only when it is the same statement (its leaf hash equals the first
     * copy's, or the stored record's): a retry sends the bytes it sent before. A repeat with other
     * content is refused {@code DELIVERY_ID_REUSED} (issue 61: a vote sent as {@code seal:<board>}
     * first must not silently turn the real seal into a "duplicate"). The decision reads only the
     * board's own earlier records, so a replay makes it again.
     */
    private static List<PendingEvent> dropRepeated(
            LogWriter c, BoardProjection board, List<PendingEvent> events, List<Refused> refused, boolean lookUp) {
        Map<String, PendingEvent> firstCopies = new LinkedHashMap<>();
        for (PendingEvent e : events) {
            PendingEvent first = firstCopies.putIfAbsent(e.statement().deliveryId(), e);
            if (first != null && !MessageDigest.isEqual(first.leafHash(), e.leafHash())) {
                refused.add(reused(board, e, "an earlier statement of offset " + first.offset()));
            }
        }
        Map<ByteBuffer, String> byKey = new HashMap<>();
        for (Iterator<PendingEvent> it = firstCopies.values().iterator(); it.hasNext(); ) {
            PendingEvent e = it.next();
            String other = byKey.putIfAbsent(
                    ByteBuffer.wrap(Deliveries.key(board.boardId, e.content())),
                    e.statement().deliveryId());
            if (other != null) {
                refused.add(collision(board, e, other));
                it.remove();
            }
        }
        if (!lookUp) {
            return new ArrayList<>(firstCopies.values());
        }
        Map<String, Long> stored = c.storedDeliveries(board.boardId, byKey.keySet());
        Map<Long, byte[]> storedLeaves = stored.isEmpty() ? Map.of() : c.leaves(board.boardId, stored.values());
        Set<String> duplicates = new HashSet<>();
        for (Map.Entry<String, Long> s : stored.entrySet()) {
            String id = s.getKey();
            PendingEvent mine = firstCopies.get(id);
            if (mine == null) {
                String same = byKey.get(ByteBuffer.wrap(Deliveries.key(board.boardId, id)));
                refused.add(collision(board, firstCopies.remove(same), id));
            } else if (MessageDigest.isEqual(mine.leafHash(), storedLeaves.get(s.getValue()))) {
                duplicates.add(id);
            } else {
                refused.add(reused(board, mine, "record " + s.getValue()));
                firstCopies.remove(id);
            }
        }
        List<PendingEvent> out = new ArrayList<>(firstCopies.size());
        for (PendingEvent e : firstCopies.values()) {
            if (!duplicates.contains(e.statement().deliveryId())) {
                out.add(e);
            }
        }
        return out;
    }

    private static Refused reused(BoardProjection board, PendingEvent event, String holder) {
        return new Refused(
                event,
                BadEventException.Reason.DELIVERY_ID_REUSED,
                "board " + board.name + ": delivery ID '" + event.statement().deliveryId() + "' is taken by "
                        + holder + " with other content (another kind, time or body); a retry sends the same "
                        + "statement again, so this one is refused and the first stands (choose a new delivery ID "
                        + "for a new statement)");
    }

    private static Refused collision(BoardProjection board, PendingEvent event, String earlier) {
        return new Refused(
                event,
                BadEventException.Reason.REFUSED,
                "board " + board.name + ": delivery ID '"
                        + event.statement().deliveryId()
                        + "' shares its delivery key (14 bytes of its SHA-256) with the earlier '"
                        + earlier
                        + "'; the primary key of deliveries cannot hold both (choose another delivery ID)");
    }

    /** The records' rows, in the order of {@code events}. */
    private static List<RecordRow> insertRecords(LogWriter c, BoardProjection board, List<PendingEvent> events) {
        long lastId = board.tree.size() + events.size() - 1;
        if (lastId >= board.partitionsEnd) {
            // the next partition is attached in this transaction, before it takes any other lock
            // (decision 86); a failed batch drops the board's state, so the end is read again after a rollback
            board.partitionsEnd = c.coverPartitions(board.boardId, lastId);
        }
        List<ByteBuffer> keys = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            keys.add(ByteBuffer.wrap(e.statement().senderPublicKey()));
        }
        Map<ByteBuffer, Integer> senders = c.internSenders(keys);
        List<RecordRow> rows = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            long id = board.tree.size();
            board.tree.appendLeafHash(e.leafHash());
            board.lastCreatedMillis = Math.max(board.lastCreatedMillis, e.kafkaTimestamp());
            rows.add(new RecordRow(
                    board.boardId,
                    id,
                    board.lastCreatedMillis,
                    senders.get(ByteBuffer.wrap(e.statement().senderPublicKey())),
                    e.content()));
        }
        c.insertRecords(rows);
        return rows;
    }

    private static Map<HourlyCounts.Key, Long> hourlyDeltas(List<RecordRow> rows) {
        Map<HourlyCounts.Key, Long> deltas = new HashMap<>();
        for (RecordRow r : rows) {
            deltas.merge(
                    HourlyCounts.keyOf(
                            r.content().statementMillis(), r.content().kind()),
                    1L,
                    Long::sum);
        }
        return deltas;
    }

    private static Map<CounterKey, Long> counterDeltas(List<PendingEvent> events) {
        Map<CounterKey, Long> deltas = new TreeMap<>();
        for (PendingEvent e : events) {
            DecodedStatement st = e.statement();
            for (CounterKey k : CounterKey.of(e.content().kind(), st.electionId(), st.hasUser())) {
                deltas.merge(k, 1L, Long::sum);
            }
        }
        return deltas;
    }
}
