package org.electorallog.audit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.electorallog.core.TileKey;
import org.electorallog.store.AuditRow;
import org.electorallog.store.BoardRow;
import org.electorallog.store.Projection;

/**
 * Reads the audit's pages one ahead of the checks, on a second connection that joins the audit's
 * exported snapshot, so PostgreSQL and the checks work at the same time: each page is the records of
 * a bounded ID range (primary key), with the openings of its records in the committed form (V21),
 * and the stored tiles covering it, at every level.
 */
final class AuditPages implements AutoCloseable {
    /** The rows and stored tiles of one page of IDs. */
    record Page(long start, List<AuditRow> rows, Map<TileKey, byte[]> tiles) {}

    /** What the reader hands over: a page, the end, or why it stopped. */
    private sealed interface Item permits PageItem, End, Failed {}

    private record PageItem(Page page) implements Item {}

    private record End() implements Item {}

    private record Failed(RuntimeException failure) implements Item {}

    private final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(2);
    private final Thread reader;

    /** Starts reading pages [0, limit) of {@code board} in the exported snapshot. */
    AuditPages(Projection db, String snapshot, BoardRow board, long limit, long size, int pageSize) {
        reader = new Thread(() -> read(db, snapshot, board, limit, size, pageSize), "audit-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** The audit closed while the reader waited to hand a page over. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("audit closed", null, false, false);
        }
    }

    private void read(Projection db, String snapshot, BoardRow board, long limit, long size, int pageSize) {
        short boardId = board.id();
        try {
            db.readIn(snapshot, r -> {
                Map<Integer, byte[]> senders = r.senders();
                for (long start = 0; start < limit; start += pageSize) {
                    Map<TileKey, byte[]> tiles = r.coveringTiles(boardId, start, start + pageSize, size);
                    List<AuditRow> rows = r.auditPage(board, start, start + pageSize, senders);
                    hand(new PageItem(new Page(start, rows, tiles)));
                }
                return null;
            });
            hand(new End());
        } catch (Stopped e) {
            Thread.currentThread().interrupt(); // the audit closed: nobody waits for a page
        } catch (RuntimeException e) {
            try {
                hand(new Failed(e));
            } catch (Stopped stopped) {
                Thread.currentThread().interrupt(); // the audit closed: nobody waits for the failure
            }
        }
    }

    private void hand(Item item) {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            throw new Stopped();
        }
    }

    /** The next page, or null after the last one; the reader's failure is thrown here. */
    Page next() {
        Item item;
        try {
            item = queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("audit interrupted", e);
        }
        if (item instanceof Failed f) {
            throw f.failure();
        }
        return item instanceof PageItem p ? p.page() : null;
    }

    @Override
    public void close() {
        reader.interrupt();
    }
}
