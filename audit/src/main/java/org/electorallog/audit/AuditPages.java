package org.electorallog.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import javax.sql.DataSource;
import org.electorallog.core.TileKey;
import org.electorallog.store.AuditRow;
import org.electorallog.store.BoardRow;
import org.electorallog.store.Records;
import org.electorallog.store.Senders;
import org.electorallog.store.Snapshot;
import org.electorallog.store.Tiles;

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

    private record Failed(Exception failure) implements Item {}

    private final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(2);
    private final Thread reader;

    /** Starts reading pages [0, limit) of {@code board} in the exported snapshot. */
    AuditPages(DataSource db, String snapshot, BoardRow board, long limit, long size, int pageSize) {
        reader = new Thread(() -> read(db, snapshot, board, limit, size, pageSize), "audit-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read(DataSource db, String snapshot, BoardRow board, long limit, long size, int pageSize) {
        short boardId = board.id();
        try (Connection r = db.getConnection()) {
            Snapshot.join(r, snapshot);
            try {
                Map<Integer, byte[]> senders = Senders.all(r);
                try (PreparedStatement ps = r.prepareStatement(Records.AUDIT_PAGE_SQL)) {
                    for (long start = 0; start < limit; start += pageSize) {
                        Map<TileKey, byte[]> tiles = Tiles.covering(r, boardId, start, start + pageSize, size);
                        List<AuditRow> rows = Records.auditPage(ps, board, start, start + pageSize, senders);
                        queue.put(new PageItem(new Page(start, rows, tiles)));
                    }
                }
            } finally {
                r.rollback();
            }
            queue.put(new End());
        } catch (SQLException | RuntimeException e) {
            try {
                queue.put(new Failed(e));
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt(); // the audit closed: nobody waits for the failure
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The next page, or null after the last one; the reader's failure is thrown here. */
    Page next() throws SQLException {
        Item item;
        try {
            item = queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("audit interrupted", e);
        }
        if (item instanceof Failed f) {
            if (f.failure() instanceof SQLException e) {
                throw e;
            }
            throw (RuntimeException) f.failure();
        }
        return item instanceof PageItem p ? p.page() : null;
    }

    @Override
    public void close() {
        reader.interrupt();
    }
}
