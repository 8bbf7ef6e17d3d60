package org.electorallog.query;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoundStatement;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Counters;
import org.electorallog.store.ListingPlan;
import org.electorallog.store.ListingSql;
import org.electorallog.store.LogReader;
import org.electorallog.store.ProjectionException;
import org.electorallog.store.RecordExports;
import org.electorallog.store.RecordFilter;
import org.electorallog.store.Records;
import org.electorallog.store.StoredRecord;

/**
 * The analyst listing, counts and exports of a board's records. The store's {@link RecordFilter}
 * picks the index and builds the statement; this class runs it in one snapshot, finds created
 * windows by binary search over the primary key, and issues the cursors.
 */
final class RecordListing {
    private final SnapshotReads reads;

    RecordListing(SnapshotReads reads) {
        this.reads = reads;
    }

    Responses.ListingPage list(String board, ListingQuery q, String cursor, Cursor cursors) {
        String identity = q.identity() + "\u0000" + board;
        Cursor.Position after = cursor == null ? null : cursors.position(identity, cursor);
        RecordFilter f = q.filter();
        return reads.read(r -> {
            Planned p = plan(r, board, f, after);
            if (p.sql() == null) {
                return new Responses.ListingPage(List.of(), null, p.served());
            }
            List<StoredRecord> rows = r.list(board, p.sql());
            List<Responses.ListedRecord> out = new ArrayList<>(rows.size());
            rows.forEach(row -> out.add(Responses.ListedRecord.of(row)));
            if (p.path() == ListingPlan.Path.SORT_INDEX) {
                StoredRecord last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
                String next = rows.size() < f.limit
                        ? null
                        : cursors.encode(identity, new Cursor.Position(last.id(), keyOf(f, last)));
                return new Responses.ListingPage(out, next, p.served());
            }
            Long nextId = null;
            if (rows.size() == f.limit) {
                nextId = rows.get(rows.size() - 1).id();
            } else if (p.path() == ListingPlan.Path.WINDOW
                    && p.lo() < p.hi()
                    && (f.desc ? p.lo() > p.from() : p.hi() < p.to())) {
                nextId = f.desc ? p.lo() : p.hi() - 1;
            }
            return new Responses.ListingPage(
                    out,
                    nextId == null ? null : cursors.encode(identity, new Cursor.Position(nextId, null)),
                    p.served());
        });
    }

    private static String keyOf(RecordFilter f, StoredRecord r) {
        return f.sort.keyOf(r);
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the statement a listing request runs (the explain endpoint). */
    String explain(String board, ListingQuery q, String cursor, Cursor cursors) {
        Cursor.Position after = cursor == null ? null : cursors.position(q.identity() + "\u0000" + board, cursor);
        return reads.read(r -> {
            Planned p = plan(r, board, q.filter(), after);
            return p.sql() == null ? "[]" : r.explain(p.sql());
        });
    }

    /** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the statement a count request runs. */
    String explainCount(String board, ListingQuery q) {
        RecordFilter f = q.filter();
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, board);
            List<CounterKey> keys = ListingPlan.counterKeys(f);
            if (keys != null) {
                return r.explain(new BoundStatement(
                        Counters.ONE_SQL,
                        List.of(b.id(), keys.get(0).kind(), keys.get(0).electionId())));
            }
            long size = r.size(b.id());
            long[] range = idRange(r, b, f, size);
            if (ListingPlan.countIsIdRange(f)) {
                // the count is the ID range's length: what runs is the created-time search of its edge(s)
                Instant edge = f.createdFrom != null ? f.createdFrom : f.createdTo;
                return edge == null
                        ? "[]"
                        : r.explain(new BoundStatement(
                                Records.FIRST_CREATED_AT_OR_AFTER_SQL, List.of(size, edge, edge, b.id())));
            }
            Integer senderId =
                    f.senderKey == null ? null : r.senderId(f.senderKey).orElse(null);
            BoundStatement sql = ListingSql.cappedCount(f, b.id(), range[0], range[1], senderId);
            if (sql == null) {
                throw ApiException.badRequest(
                        "this filter combination has no bounded count; countable: " + RecordFilter.COUNTABLE);
            }
            return r.explain(sql);
        });
    }

    /** The statement of one listing page with how it is served; sql is null when nothing can match. */
    private record Planned(
            BoundStatement sql, ListingPlan.Path path, Responses.Served served, long from, long to, long lo, long hi) {}

    private Planned plan(LogReader r, String board, RecordFilter f, Cursor.Position after) {
        BoardRow b = SnapshotReads.board(r, board);
        long size = r.size(b.id());
        ListingPlan.Path path = ListingPlan.path(f);
        String pathName = path.name().toLowerCase(Locale.ROOT);
        Integer senderId = null;
        if (f.senderKey != null) {
            senderId = r.senderId(f.senderKey).orElse(null);
            if (senderId == null) {
                return new Planned(
                        null,
                        path,
                        new Responses.Served(pathName, path.servedBy, "no record has this sender key", null, null),
                        0,
                        0,
                        0,
                        0);
            }
        }
        if (path == ListingPlan.Path.SORT_INDEX) {
            return new Planned(
                    ListingSql.page(
                            f,
                            b.id(),
                            0,
                            0,
                            after == null ? null : after.lastId(),
                            after == null ? null : after.key(),
                            null),
                    path,
                    new Responses.Served(pathName, path.servedBy, null, null, null),
                    0,
                    0,
                    0,
                    0);
        }
        long[] range = idRange(r, b, f, size);
        long from = range[0];
        long to = range[1];
        if (after != null) {
            if (f.desc) {
                to = Math.min(to, after.lastId());
            } else {
                from = Math.max(from, after.lastId() + 1);
            }
        }
        long lo = from;
        long hi = to;
        Responses.Served served = new Responses.Served(pathName, path.servedBy, null, null, null);
        if (path == ListingPlan.Path.WINDOW) {
            if (f.desc) {
                lo = Math.max(from, hi - ListingPlan.window(f));
            } else {
                hi = Math.min(to, lo + ListingPlan.window(f));
            }
            served = new Responses.Served(pathName, path.servedBy, null, lo, Math.max(lo, hi));
        }
        return new Planned(
                lo < hi ? ListingSql.page(f, b.id(), lo, hi, null, null, senderId) : null,
                path,
                served,
                from,
                to,
                lo,
                hi);
    }

    /**
     * A count: exact from counters or from an ID range in constant time, else capped at
     * {@link RecordFilter#COUNT_CAP} through an index that bounds the rows read; 400 otherwise.
     */
    Responses.Count count(String board, ListingQuery q) {
        RecordFilter f = q.filter();
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, board);
            List<CounterKey> keys = ListingPlan.counterKeys(f);
            if (keys != null) {
                return new Responses.Count(r.counterSum(b.id(), keys), false, "counters");
            }
            long[] range = idRange(r, b, f, r.size(b.id()));
            if (ListingPlan.countIsIdRange(f)) {
                return new Responses.Count(Math.max(0, range[1] - range[0]), false, "id_range");
            }
            Integer senderId = null;
            if (f.senderKey != null) {
                senderId = r.senderId(f.senderKey).orElse(null);
                if (senderId == null) {
                    return new Responses.Count(0, false, "senders");
                }
            }
            BoundStatement sql = ListingSql.cappedCount(f, b.id(), range[0], range[1], senderId);
            if (sql == null) {
                throw ApiException.badRequest(
                        "this filter combination has no bounded count; countable: " + RecordFilter.COUNTABLE);
            }
            long n = r.count(sql);
            return new Responses.Count(Math.min(n, RecordFilter.COUNT_CAP), n > RecordFilter.COUNT_CAP, "index");
        });
    }

    /** [from, to) of the IDs the request's ID bounds and created window allow, within the board's size. */
    private static long[] idRange(LogReader r, BoardRow b, RecordFilter f, long size) {
        long from = f.fromId == null ? 0 : f.fromId;
        long to = f.toId == null ? size : Math.min(size, f.toId);
        if (f.createdFrom != null) {
            from = Math.max(from, r.firstCreatedAtOrAfter(b, f.createdFrom, size));
        }
        if (f.createdTo != null) {
            to = Math.min(to, r.firstCreatedAtOrAfter(b, f.createdTo, size));
        }
        return new long[] {from, Math.max(from, to)};
    }

    /** The export's upper bound: the latest checkpoint, so an export is consistent and verifiable. */
    record Manifest(short boardId, long size, String root, String checkpoint) {}

    Manifest manifest(String board) {
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, board);
            CheckpointRow cp = r.latestCheckpoint(b.id())
                    .orElseThrow(() ->
                            ApiException.notFound("board '" + board + "' has no checkpoint yet; nothing to export"));
            return new Manifest(b.id(), cp.size(), Responses.b64(cp.root()), cp.note());
        });
    }

    /** What an export writes each record to. */
    @FunctionalInterface
    interface RowSink {
        void accept(Responses.ListedRecord row) throws IOException;
    }

    /**
     * Streams records [0, manifest size) of a board in ID order, {@code batch} per query, to {@code sink},
     * each with its leaf hash from the tiles: all records with their statements ({@link
     * RecordExports.ExportShape#STATEMENTS}), or their fields alone, all or one kind.
     */
    void stream(String board, Manifest m, int batch, RecordExports.ExportShape shape, RowSink sink) throws IOException {
        try {
            reads.exports()
                    .<IOException>export(
                            m.boardId(),
                            board,
                            m.size(),
                            batch,
                            shape,
                            (r, leafHash) -> sink.accept(Responses.ListedRecord.of(r, leafHash, shape.statements())));
        } catch (ProjectionException e) {
            throw new IOException("export of board " + board + " failed: " + e.getMessage(), e);
        }
    }

    /** One CSV line (RFC 4180 quoting). */
    static void csv(Writer w, Responses.ListedRecord row) throws IOException {
        StringBuilder sb = new StringBuilder();
        List<Object> values = row.csvValues();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            String s = values.get(i).toString();
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                s = '"' + s.replace("\"", "\"\"") + '"';
            }
            sb.append(s);
        }
        w.write(sb.append("\r\n").toString());
    }

    static Writer writer(OutputStream out) {
        return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }
}
