package org.electorallog.store;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of a {@link RecordFilter}'s listing page and capped count, as {@link ListingPlan} serves
 * it: parameterized, and reading rows through the index the plan names.
 */
public final class ListingSql {
    private ListingSql() {}

    /**
     * The page statement for ID order within [from, to), or for a sort by a column after
     * {@code after} (null on the first page). {@code senderId} is the resolved sender key (null when none
     * was asked).
     */
    public static BoundStatement page(
            RecordFilter f, short boardId, long from, long to, Long afterId, String afterKey, Integer senderId) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql =
                new StringBuilder("SELECT ").append(Records.LISTED_COLUMNS).append(" FROM records WHERE board_id = ?");
        params.add(boardId);
        String column = f.sortColumn();
        if (column == null) {
            filters(f, sql, params, senderId);
            sql.append(" AND id >= ? AND id < ?");
            params.add(from);
            params.add(to);
            // a value's rows come from its index and are sorted; "id + 0" keeps the planner from walking the
            // primary key instead when its statistics are stale (a new board), which would read the board
            String key = ListingPlan.path(f) == ListingPlan.Path.VALUE_ROWS ? "id + 0" : "id";
            sql.append(" ORDER BY ").append(key).append(f.desc ? " DESC" : "");
        } else {
            filters(f, sql, params, null);
            if (f.sort.nullable()) {
                sql.append(" AND ").append(column).append(" IS NOT NULL");
            }
            if (afterId != null) {
                Object key = f.sort.parseKey(afterKey);
                // the plain bound lets the index scan start at the key; the row comparison breaks ties by ID
                sql.append(" AND ").append(column).append(f.desc ? " <= ?" : " >= ?");
                sql.append(" AND (")
                        .append(column)
                        .append(", id) ")
                        .append(f.desc ? "<" : ">")
                        .append(" (?, ?)");
                params.add(key);
                params.add(key);
                params.add(afterId);
            }
            String dir = f.desc ? " DESC" : "";
            sql.append(" ORDER BY ").append(column).append(dir).append(", id").append(dir);
        }
        sql.append(" LIMIT ?");
        params.add(f.limit);
        return new BoundStatement(sql.toString(), params);
    }

    /**
     * The capped count statement: at most {@link RecordFilter#COUNT_CAP} + 1 matching rows, found through an index
     * that bounds the rows read (a value's rows, a kind's or an election's IDs in a range, or a
     * statement-time window). Null when no index bounds it.
     */
    public static BoundStatement cappedCount(RecordFilter f, short boardId, long from, long to, Integer senderId) {
        ListingPlan.Path p = ListingPlan.path(f);
        boolean statementWindowOnly = f.statementWindowOnly();
        if (p != ListingPlan.Path.VALUE_ROWS
                && p != ListingPlan.Path.KIND_INDEX
                && p != ListingPlan.Path.ELECTION_INDEX
                && !statementWindowOnly) {
            return null;
        }
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM (SELECT 1 FROM records WHERE board_id = ?");
        params.add(boardId);
        filters(f, sql, params, senderId);
        if (!statementWindowOnly) {
            sql.append(" AND id >= ? AND id < ?");
            params.add(from);
            params.add(to);
        }
        sql.append(" LIMIT ?) capped");
        params.add(RecordFilter.COUNT_CAP + 1);
        return new BoundStatement(sql.toString(), params);
    }

    private static void filters(RecordFilter f, StringBuilder sql, List<Object> params, Integer senderId) {
        eq(sql, params, "kind", f.kind);
        eq(sql, params, "user_id", f.userId);
        eq(sql, params, "username", f.username);
        eq(sql, params, "election_id", f.electionId);
        eq(sql, params, "area_id", f.areaId);
        eq(sql, params, "ballot_id", f.ballotId);
        eq(sql, params, "sender_id", senderId);
        if (f.statementFrom != null) {
            sql.append(" AND statement_ts >= ?");
            params.add(f.statementFrom);
        }
        if (f.statementTo != null) {
            sql.append(" AND statement_ts < ?");
            params.add(f.statementTo);
        }
        if (f.withUser) {
            sql.append(" AND user_id IS NOT NULL");
        }
        if (f.visibleElections != null) {
            sql.append(" AND election_id = ANY(?)");
            params.add(f.visibleElections);
        }
        if (f.visibleAreas != null) {
            sql.append(" AND area_id = ANY(?)");
            params.add(f.visibleAreas);
        }
    }

    private static void eq(StringBuilder sql, List<Object> params, String column, Object value) {
        if (value != null) {
            sql.append(" AND ").append(column).append(" = ?");
            params.add(value);
        }
    }
}
