package org.electorallog.store;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The filters and sort of one listing or count of a board's records, and the one SQL statement that
 * serves it. Every statement is parameterized and read bounded (docs/decisions.md, "Listing indexes
 * and the storage budget"):
 * <ul>
 * <li><b>ID order</b> (sort {@code id} or {@code created}, which follows the IDs):
 *   <ul>
 *   <li>no filter: the primary key;</li>
 *   <li>a user ID, username or ballot ID: that value's rows (a voter's handful) from its index, any
 *       other filter applied to them;</li>
 *   <li>a kind or an election alone: records_kind or records_election, in ID order;</li>
 *   <li>any other filter or combination: a <em>window</em> of at most {@link #WINDOW_PAGES} times
 *       the page size of IDs per request. Such a page may hold fewer records than the limit, even
 *       none; the caller continues after the window until the ID range is exhausted.</li>
 *   </ul></li>
 * <li><b>Sort by a column</b> ({@code kind}, {@code election_id}, {@code user_id}, {@code username},
 *     {@code ballot_id}, {@code statement_time}): that column's index, keyset on (column, ID); the only
 *     filter allowed is on the same column (a statement-time window for {@code statement_time}).
 *     Sorting by a column lists the records that have it.</li>
 * </ul>
 * ID bounds ({@code from_id}, {@code to_id}, and a created window found by binary search) combine
 * with the ID-order paths. A combination no index serves is refused with an
 * {@link IllegalArgumentException} whose message says what is supported.
 */
public final class RecordFilter {
    /** Capped counts stop here and say so. */
    public static final int COUNT_CAP = 10_000;
    /** A window reads at most this many page sizes of IDs. */
    public static final int WINDOW_PAGES = 10;

    /** The sorts a listing takes. */
    public static final List<String> SORTS =
            List.of("id", "created", "statement_time", "kind", "user_id", "username", "ballot_id", "election_id");

    /** How a listing is served, reported to the caller. */
    public enum Path {
        PRIMARY_KEY("records_pkey"),
        VALUE_ROWS("the value's index"),
        KIND_INDEX("records_kind"),
        ELECTION_INDEX("records_election"),
        WINDOW("a bounded window of IDs"),
        SORT_INDEX("the sort column's index");

        public final String servedBy;

        Path(String servedBy) {
            this.servedBy = servedBy;
        }
    }

    public final String sort;
    public final boolean desc;
    public final int limit;
    public final Short kind;
    public final String userId;
    public final String username;
    public final String electionId;
    public final String areaId;
    public final String ballotId;
    public final byte[] senderKey;
    public final Timestamp createdFrom;
    public final Timestamp createdTo;
    public final Timestamp statementFrom;
    public final Timestamp statementTo;
    public final Long fromId;
    public final Long toId;
    public final boolean withUser;
    public final String[] visibleElections;
    public final String[] visibleAreas;

    /** The values of a filter, set by the caller that parsed a request; {@link #build} checks them. */
    public static final class Builder {
        public String sort;
        public boolean desc = true;
        public int limit = 100;
        public Short kind;
        public String userId;
        public String username;
        public String electionId;
        public String areaId;
        public String ballotId;
        public byte[] senderKey;
        public Timestamp createdFrom;
        public Timestamp createdTo;
        public Timestamp statementFrom;
        public Timestamp statementTo;
        public Long fromId;
        public Long toId;
        public boolean withUser;
        public String[] visibleElections;
        public String[] visibleAreas;

        /** The filter; IllegalArgumentException for a sort no index serves with these filters. */
        public RecordFilter build() {
            return new RecordFilter(this);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    private RecordFilter(Builder b) {
        this.limit = b.limit;
        this.kind = b.kind;
        this.userId = b.userId;
        this.username = b.username;
        this.electionId = b.electionId;
        this.areaId = b.areaId;
        this.ballotId = b.ballotId;
        this.senderKey = b.senderKey == null ? null : b.senderKey.clone();
        this.createdFrom = b.createdFrom;
        this.createdTo = b.createdTo;
        this.statementFrom = b.statementFrom;
        this.statementTo = b.statementTo;
        this.fromId = b.fromId;
        this.toId = b.toId;
        this.withUser = b.withUser;
        this.visibleElections = b.visibleElections == null ? null : b.visibleElections.clone();
        this.visibleAreas = b.visibleAreas == null ? null : b.visibleAreas.clone();
        this.desc = b.desc;
        String s = b.sort;
        if (s == null) {
            // a statement-time window alone is served in statement-time order by its index
            boolean onlyStatementWindow = (statementFrom != null || statementTo != null)
                    && equalityFilters() == 0
                    && !hasResiduals(false)
                    && !hasIdBounds();
            s = onlyStatementWindow ? "statement_time" : "id";
        }
        if (!SORTS.contains(s)) {
            throw new IllegalArgumentException("cannot sort by '" + s + "'; sorts: " + SORTS);
        }
        this.sort = s;
        Objects.requireNonNull(sort);
        checkSortFilters();
    }

    private int equalityFilters() {
        int n = 0;
        for (Object o : new Object[] {kind, userId, username, electionId, areaId, ballotId, senderKey}) {
            n += o == null ? 0 : 1;
        }
        return n;
    }

    public boolean hasIdBounds() {
        return fromId != null || toId != null || createdFrom != null || createdTo != null;
    }

    /** Filters other than the equality ones: with a user, visibility, and (if asked) the statement-time window. */
    private boolean hasResiduals(boolean statementWindow) {
        return withUser
                || visibleElections != null
                || visibleAreas != null
                || (statementWindow && (statementFrom != null || statementTo != null));
    }

    /** The column a sort pages on, or null for ID order. */
    public String sortColumn() {
        return switch (sort) {
            case "id", "created" -> null;
            case "statement_time" -> "statement_ts";
            default -> sort;
        };
    }

    private void checkSortFilters() {
        String column = sortColumn();
        if (column == null) {
            return;
        }
        boolean ok = !hasIdBounds() && !hasResiduals(!column.equals("statement_ts"));
        int equality = equalityFilters();
        switch (column) {
            case "statement_ts" -> ok &= equality == 0;
            case "kind" -> ok &= equality == (kind == null ? 0 : 1) && statementFrom == null && statementTo == null;
            default -> {
                Object same = switch (column) {
                    case "user_id" -> userId;
                    case "username" -> username;
                    case "ballot_id" -> ballotId;
                    default -> electionId;
                };
                ok &= equality == (same == null ? 0 : 1) && statementFrom == null && statementTo == null;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException(
                    "sorting by " + sort + " takes no filter but one on " + sort
                            + " itself (statement_time_from/_to for statement_time); every filter is served in ID order "
                            + "(sort=id, the default). Supported: sort=id with any filters; sort=<column> with a filter on that column");
        }
    }

    /** The path an ID-order listing takes. */
    public Path path() {
        if (sortColumn() != null) {
            return Path.SORT_INDEX;
        }
        if (userId != null || username != null || ballotId != null) {
            return Path.VALUE_ROWS;
        }
        boolean residual = hasResiduals(true) || areaId != null || senderKey != null;
        int equality = equalityFilters();
        if (!residual && equality == 0) {
            return Path.PRIMARY_KEY;
        }
        if (!residual && equality == 1 && kind != null) {
            return Path.KIND_INDEX;
        }
        if (!residual && equality == 1 && electionId != null) {
            return Path.ELECTION_INDEX;
        }
        return Path.WINDOW;
    }

    /** The IDs a window covers per request. */
    public long window() {
        return (long) WINDOW_PAGES * limit;
    }

    /**
     * The page statement for ID order within [from, to), or for a sort by a column after
     * {@code after} (null on the first page). {@code senderId} is the resolved sender key (null when none
     * was asked).
     */
    public BoundStatement page(short boardId, long from, long to, Long afterId, String afterKey, Integer senderId) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql =
                new StringBuilder("SELECT ").append(Records.LISTED_COLUMNS).append(" FROM records WHERE board_id = ?");
        params.add(boardId);
        String column = sortColumn();
        if (column == null) {
            filters(sql, params, senderId);
            sql.append(" AND id >= ? AND id < ?");
            params.add(from);
            params.add(to);
            // a value's rows come from its index and are sorted; "id + 0" keeps the planner from walking the
            // primary key instead when its statistics are stale (a new board), which would read the board
            String key = path() == Path.VALUE_ROWS ? "id + 0" : "id";
            sql.append(" ORDER BY ").append(key).append(desc ? " DESC" : "");
        } else {
            filters(sql, params, null);
            if (!column.equals("kind") && !column.equals("statement_ts")) {
                sql.append(" AND ").append(column).append(" IS NOT NULL");
            }
            if (afterId != null) {
                Object key = sortKey(column, afterKey);
                // the plain bound lets the index scan start at the key; the row comparison breaks ties by ID
                sql.append(" AND ").append(column).append(desc ? " <= ?" : " >= ?");
                sql.append(" AND (")
                        .append(column)
                        .append(", id) ")
                        .append(desc ? "<" : ">")
                        .append(" (?, ?)");
                params.add(key);
                params.add(key);
                params.add(afterId);
            }
            String dir = desc ? " DESC" : "";
            sql.append(" ORDER BY ").append(column).append(dir).append(", id").append(dir);
        }
        sql.append(" LIMIT ?");
        params.add(limit);
        return new BoundStatement(sql.toString(), params);
    }

    /** The sort key of a listed record for a cursor, as text. */
    public String keyOf(StoredRecord row) {
        return switch (sort) {
            case "statement_time" -> Long.toString(micros(Timestamp.from(row.statementTime())));
            case "kind" -> Short.toString(row.kind());
            case "user_id" -> row.fields().userId();
            case "username" -> row.fields().username();
            case "ballot_id" -> row.fields().ballotId();
            case "election_id" -> row.fields().electionId();
            default -> throw new IllegalStateException("no sort key in ID order");
        };
    }

    private static Object sortKey(String column, String key) {
        try {
            return switch (column) {
                case "statement_ts" -> {
                    long micros = Long.parseLong(key);
                    Timestamp t = new Timestamp(Math.floorDiv(micros, 1000));
                    t.setNanos((int) Math.floorMod(micros, 1_000_000L) * 1000);
                    yield t;
                }
                case "kind" -> Short.parseShort(key);
                default -> key;
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the cursor does not fit this sort; start again without a cursor", e);
        }
    }

    public static long micros(Timestamp t) {
        return Math.floorDiv(t.getTime(), 1000) * 1_000_000L + t.getNanos() / 1000;
    }

    private void filters(StringBuilder sql, List<Object> params, Integer senderId) {
        eq(sql, params, "kind", kind);
        eq(sql, params, "user_id", userId);
        eq(sql, params, "username", username);
        eq(sql, params, "election_id", electionId);
        eq(sql, params, "area_id", areaId);
        eq(sql, params, "ballot_id", ballotId);
        eq(sql, params, "sender_id", senderId);
        if (statementFrom != null) {
            sql.append(" AND statement_ts >= ?");
            params.add(statementFrom);
        }
        if (statementTo != null) {
            sql.append(" AND statement_ts < ?");
            params.add(statementTo);
        }
        if (withUser) {
            sql.append(" AND user_id IS NOT NULL");
        }
        if (visibleElections != null) {
            sql.append(" AND election_id = ANY(?)");
            params.add(visibleElections);
        }
        if (visibleAreas != null) {
            sql.append(" AND area_id = ANY(?)");
            params.add(visibleAreas);
        }
    }

    private static void eq(StringBuilder sql, List<Object> params, String column, Object value) {
        if (value != null) {
            sql.append(" AND ").append(column).append(" = ?");
            params.add(value);
        }
    }

    // ---------------------------------------------------------------- counts

    /** The counters to add up for this count, or null when counters cannot answer it. */
    public List<CounterKey> counterKeys() {
        if (hasIdBounds()
                || userId != null
                || username != null
                || ballotId != null
                || areaId != null
                || senderKey != null
                || statementFrom != null
                || statementTo != null
                || visibleAreas != null) {
            return null;
        }
        if (withUser) {
            return kind == null && electionId == null && visibleElections == null
                    ? List.of(CounterKey.withUser())
                    : null;
        }
        short k = kind == null ? CounterKey.ALL_KINDS : kind;
        if (visibleElections != null) {
            if (electionId != null) {
                return null;
            }
            List<CounterKey> keys = new ArrayList<>();
            for (String e : new java.util.TreeSet<>(Arrays.asList(visibleElections))) {
                keys.add(new CounterKey(k, e));
            }
            return keys;
        }
        return List.of(new CounterKey(k, electionId == null ? CounterKey.ALL_ELECTIONS : electionId));
    }

    /** True when the count is the size of an ID range (only ID bounds or a created window). */
    public boolean countIsIdRange() {
        return hasIdBounds() && equalityFilters() == 0 && !hasResiduals(true);
    }

    /**
     * The capped count statement: at most {@link #COUNT_CAP} + 1 matching rows, found through an index
     * that bounds the rows read (a value's rows, a kind's or an election's IDs in a range, or a
     * statement-time window). Null when no index bounds it.
     */
    public BoundStatement cappedCount(short boardId, long from, long to, Integer senderId) {
        Path p = path();
        boolean statementWindowOnly = (statementFrom != null || statementTo != null)
                && equalityFilters() == 0
                && !hasResiduals(false)
                && !hasIdBounds();
        if (p != Path.VALUE_ROWS && p != Path.KIND_INDEX && p != Path.ELECTION_INDEX && !statementWindowOnly) {
            return null;
        }
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM (SELECT 1 FROM records WHERE board_id = ?");
        params.add(boardId);
        filters(sql, params, senderId);
        if (!statementWindowOnly) {
            sql.append(" AND id >= ? AND id < ?");
            params.add(from);
            params.add(to);
        }
        sql.append(" LIMIT ?) capped");
        params.add(COUNT_CAP + 1);
        return new BoundStatement(sql.toString(), params);
    }

    public static final String COUNTABLE =
            "no filter; kind; election_id; kind and election_id; visible_elections (with kind); "
                    + "with_user (from counters, exact); from_id/to_id/created_from/created_to alone (exact); user_id, username "
                    + "or ballot_id with any other filters; kind or election_id with an ID range; a statement-time window alone "
                    + "(capped at " + COUNT_CAP + ")";
}
