package org.electorallog.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.statement.Entry;
import org.electorallog.store.BoardRow;
import org.electorallog.store.IndexedFields;
import org.electorallog.store.RecordContent;
import org.electorallog.store.RecordInserter;
import org.electorallog.store.RecordRow;

/**
 * The COPY ceiling of {@code perf fill} (issue 17): at a window's edge, rows of the same generator
 * COPYed into the records table under the IDs that follow the board's end, timed, then rolled back.
 */
final class CopyCeiling {
    private CopyCeiling() {}

    /**
     * One COPY window at the board's current size: {@code rows} rows (generated first, untimed) by binary
     * COPY into records in one transaction, {@link FillRun#COPY_BATCH} per COPY, then rolled back.
     */
    static Map<String, Object> window(PerfEnvironment env, String board, int rows) throws Exception {
        long size = env.sizes().getOrDefault(board, 0L);
        Optional<BoardRow> row = env.db.statement(r -> r.board(board));
        if (row.isEmpty()) {
            // the first window of a new board: nothing projected yet, so no board row to write under
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", size);
            m.put("rows", 0);
            m.put("rows_per_second", null);
            m.put("note", "the board has no row yet: nothing to write under");
            return m;
        }
        short boardId = row.get().id();
        // voters far beyond the fill's (one range per size), with a seed of their own: fresh delivery IDs,
        // users and ballots, so they land at random places in the indexes as new voters do
        long firstVoter = 1_000_000_000L + size;
        List<RecordRow> all = new ArrayList<>(rows);
        long[] next = {size};
        new ElectionStatements(board, ~FillRun.seed(board, firstVoter))
                .interleaved(firstVoter, firstVoter + rows / 5, s -> {
                    long id = next[0]++;
                    IndexedFields fields = new IndexedFields(
                            str(s.getUserId()),
                            str(s.getUsername()),
                            str(s.getElectionId()),
                            str(s.getAreaId()),
                            str(s.getBallotId()));
                    // the row as the projector writes it: its statement in the stored form (store V22)
                    all.add(new RecordRow(
                            boardId,
                            id,
                            System.currentTimeMillis(),
                            1,
                            new RecordContent(
                                    s.getStatementTimestamp(),
                                    Entry.of(
                                            CanonicalStatement.encode(s),
                                            s.getKind().name()),
                                    fields,
                                    board,
                                    s.getDeliveryId().toString(),
                                    1,
                                    0,
                                    id,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null)));
                });
        // one transaction, rolled back: the rows are measured, not kept
        long spent = env.db.rollBack(w -> {
            // the partitions these IDs need (untimed, as the projector attaches a partition once per million records)
            w.coverPartitions(boardId, size + all.size() - 1);
            long copying = 0;
            for (int i = 0; i < all.size(); i += FillRun.COPY_BATCH) {
                List<RecordRow> batch = all.subList(i, Math.min(all.size(), i + FillRun.COPY_BATCH));
                long t = System.nanoTime();
                w.insertRecords(RecordInserter.BINARY_COPY, batch);
                copying += System.nanoTime() - t;
            }
            return copying;
        });
        double seconds = spent / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", size);
        m.put("rows", all.size());
        m.put("seconds", Latencies.round(seconds));
        m.put("rows_per_second", Math.round(all.size() / seconds));
        return m;
    }

    private static String str(CharSequence s) {
        return s == null ? null : s.toString();
    }
}
