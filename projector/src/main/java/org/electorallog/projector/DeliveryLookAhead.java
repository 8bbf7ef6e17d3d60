package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.store.Records;

/**
 * Which of a batch's delivery IDs PostgreSQL already holds, looked up by the stream thread while the
 * batch before it is still being written (decision 79), so that the batch writer does not wait for
 * that lookup between one batch's COPY and the next.
 *
 * <p>The look-ahead sees what was committed when it ran, which is everything before the batch in
 * flight but not that batch. So each key the batch shares with the batch in flight (same board) is
 * marked, and {@link #storedIds} looks it up again in the batch's own transaction, after the batch
 * in flight committed or was rolled back: the answer is then the same as a lookup made at that
 * moment. Only boards whose ID was known when it ran are covered (a board first written by the batch
 * in flight is looked up by the writer as before). A look-ahead holds until its batch's first commit:
 * the parts of a batch split to isolate a refused event, after the first, look up their own
 * ({@link #NONE}).
 */
final class DeliveryLookAhead {
    /** Covers nothing: every key is looked up by {@link #storedIds} in the batch's transaction. */
    static final DeliveryLookAhead NONE = new DeliveryLookAhead(Map.of());

    /**
     * One board's share: the keys looked up, the stored delivery ID of those that were stored, and
     * those of them the batch in flight holds as well.
     */
    record Board(short boardId, Set<ByteBuffer> looked, Map<ByteBuffer, String> stored, Set<ByteBuffer> inFlight) {}

    private final Map<String, Board> boards;

    private DeliveryLookAhead(Map<String, Board> boards) {
        this.boards = boards;
    }

    /**
     * Looks up, on {@code c}, the delivery keys of {@code batch} for the boards in {@code boardIds}
     * (board name to its committed ID), marking those {@code inFlight} (the batch being written, not
     * yet committed) holds as well. One lookup per board, by the unique index records_delivery_id.
     */
    static DeliveryLookAhead of(
            Connection c, List<PendingEvent> batch, List<PendingEvent> inFlight, Map<String, Short> boardIds)
            throws SQLException {
        Map<String, Set<ByteBuffer>> keys = keysByBoard(batch, boardIds.keySet());
        if (keys.isEmpty()) {
            return NONE;
        }
        Map<String, Set<ByteBuffer>> flying = keysByBoard(inFlight, keys.keySet());
        Map<String, Board> out = new HashMap<>();
        for (Map.Entry<String, Set<ByteBuffer>> e : keys.entrySet()) {
            short boardId = boardIds.get(e.getKey());
            Map<ByteBuffer, String> stored = new HashMap<>();
            for (String id : Records.deliveryIdsWithKeys(c, boardId, e.getValue())) {
                stored.put(ByteBuffer.wrap(Records.deliveryKey(id)), id);
            }
            Set<ByteBuffer> shared = new HashSet<>(flying.getOrDefault(e.getKey(), Set.of()));
            shared.retainAll(e.getValue());
            out.put(e.getKey(), new Board(boardId, Set.copyOf(e.getValue()), Map.copyOf(stored), Set.copyOf(shared)));
        }
        return new DeliveryLookAhead(Map.copyOf(out));
    }

    /** The board's share, or null when this look-ahead does not cover the board with that ID. */
    Board board(String name, short boardId) {
        Board b = boards.get(name);
        return b == null || b.boardId() != boardId ? null : b;
    }

    /**
     * The stored delivery IDs of the board whose delivery keys are among {@code keys}, as {@link
     * Records#deliveryIdsWithKeys} answers on {@code c} now: from the look-ahead where it holds, and
     * looked up on {@code c} for the keys it does not cover or shares with the batch that was in
     * flight when it ran.
     */
    List<String> storedIds(Connection c, String board, short boardId, Collection<ByteBuffer> keys) throws SQLException {
        Board b = board(board, boardId);
        if (b == null) {
            return Records.deliveryIdsWithKeys(c, boardId, keys);
        }
        List<String> out = new ArrayList<>();
        List<ByteBuffer> again = new ArrayList<>();
        for (ByteBuffer k : keys) {
            if (b.inFlight().contains(k) || !b.looked().contains(k)) {
                again.add(k);
            } else {
                String id = b.stored().get(k);
                if (id != null) {
                    out.add(id);
                }
            }
        }
        if (!again.isEmpty()) {
            out.addAll(Records.deliveryIdsWithKeys(c, boardId, again));
        }
        return out;
    }

    private static Map<String, Set<ByteBuffer>> keysByBoard(List<PendingEvent> events, Collection<String> boards) {
        Map<String, Set<ByteBuffer>> out = new LinkedHashMap<>();
        for (PendingEvent e : events) {
            String board = e.statement().board();
            if (boards.contains(board)) {
                out.computeIfAbsent(board, b -> new HashSet<>())
                        .add(ByteBuffer.wrap(Records.deliveryKey(e.statement().deliveryId())));
            }
        }
        return out;
    }
}
