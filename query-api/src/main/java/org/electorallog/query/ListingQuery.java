package org.electorallog.query;

import org.electorallog.store.CounterKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.electorallog.core.Hex;
import org.electorallog.schemas.StatementKinds;

/**
 * One admin listing request ({@code GET /admin/boards/{board}/records} and its {@code /count}),
 * validated, and the one SQL statement that serves it. Every statement is parameterized and read
 * bounded (docs/decisions.md, "Listing indexes and the storage budget"):
 * <ul>
 * <li><b>ID order</b> (sort {@code id} or {@code created}, which follows the IDs):
 *   <ul>
 *   <li>no filter: the primary key;</li>
 *   <li>a user ID, username or ballot ID: that value's rows (a voter's handful) from its index, any
 *       other filter applied to them;</li>
 *   <li>a kind or an election alone: records_kind or records_election, in ID order;</li>
 *   <li>any other filter or combination: a <em>window</em> of at most {@link #WINDOW_PAGES} times
 *       the page size of IDs per request. Such a page may hold fewer records than the limit, even
 *       none; {@code next_cursor} continues after the window until the ID range is exhausted.</li>
 *   </ul></li>
 * <li><b>Sort by a column</b> ({@code kind}, {@code election_id}, {@code user_id}, {@code username},
 *     {@code ballot_id}, {@code statement_time}): that column's index, keyset on (column, ID); the only
 *     filter allowed is on the same column (a statement-time window for {@code statement_time}).
 *     Sorting by a column lists the records that have it.</li>
 * </ul>
 * ID bounds ({@code from_id}, {@code to_id}, and a created window found by binary search) combine
 * with the ID-order paths.
 */
final class ListingQuery {
    /** Capped counts stop here and say so. */
    static final int COUNT_CAP = 10_000;
    /** A window reads at most this many page sizes of IDs. */
    static final int WINDOW_PAGES = 10;

    static final Set<String> PARAMETERS = Set.of("sort", "order", "limit", "cursor", "kind", "user_id", "username",
            "election_id", "area_id", "ballot_id", "sender_key", "created_from", "created_to", "statement_time_from",
            "statement_time_to", "from_id", "to_id", "with_user", "visible_elections", "visible_areas");
    static final List<String> SORTS = List.of("id", "created", "statement_time", "kind", "user_id", "username",
            "ballot_id", "election_id");

    static final String COLUMNS = "id, created, statement_ts, kind, user_id, username, election_id, area_id, ballot_id, "
            + "delivery_id, statement";

    /** A statement with its parameters in order. */
    record Sql(String text, List<Object> params) {
        PreparedStatement prepare(Connection c, String prefix) throws SQLException {
            PreparedStatement ps = c.prepareStatement(prefix + text);
            int i = 1;
            for (Object p : params) {
                if (p instanceof String[] a) {
                    ps.setArray(i++, c.createArrayOf("text", a));
                } else {
                    ps.setObject(i++, p);
                }
            }
            return ps;
        }
    }

    /** How a listing is served, reported to the caller. */
    enum Path {
        PRIMARY_KEY("records_pkey"), VALUE_ROWS("the value's index"), KIND_INDEX("records_kind"),
        ELECTION_INDEX("records_election"), WINDOW("a bounded window of IDs"), SORT_INDEX("the sort column's index");

        final String servedBy;

        Path(String servedBy) {
            this.servedBy = servedBy;
        }
    }

    final String sort;
    final boolean desc;
    final int limit;
    final Short kind;
    final String userId;
    final String username;
    final String electionId;
    final String areaId;
    final String ballotId;
    final byte[] senderKey;
    final Timestamp createdFrom;
    final Timestamp createdTo;
    final Timestamp statementFrom;
    final Timestamp statementTo;
    final Long fromId;
    final Long toId;
    final boolean withUser;
    final String[] visibleElections;
    final String[] visibleAreas;
    /** The request's filters and sort, without limit and cursor: a cursor is bound to it. */
    final String identity;

    private ListingQuery(Map<String, String> p) {
        Map<String, String> bound = new TreeMap<>(p);
        bound.remove("limit");
        bound.remove("cursor");
        this.identity = "records\u0000" + bound;
        this.limit = p.containsKey("limit") ? (int) QueryParameters.bounded("limit", p.get("limit"), 1, 1000) : 100;
        this.kind = p.containsKey("kind") ? kind(p.get("kind")) : null;
        this.userId = QueryParameters.text("user_id", p.get("user_id"));
        this.username = QueryParameters.text("username", p.get("username"));
        this.electionId = QueryParameters.text("election_id", p.get("election_id"));
        this.areaId = QueryParameters.text("area_id", p.get("area_id"));
        this.ballotId = QueryParameters.text("ballot_id", p.get("ballot_id"));
        this.senderKey = p.containsKey("sender_key") ? senderKey(p.get("sender_key")) : null;
        this.createdFrom = QueryParameters.instant("created_from", p.get("created_from"));
        this.createdTo = QueryParameters.instant("created_to", p.get("created_to"));
        this.statementFrom = QueryParameters.instant("statement_time_from", p.get("statement_time_from"));
        this.statementTo = QueryParameters.instant("statement_time_to", p.get("statement_time_to"));
        this.fromId = p.containsKey("from_id") ? QueryParameters.number("from_id", p.get("from_id")) : null;
        this.toId = p.containsKey("to_id") ? QueryParameters.number("to_id", p.get("to_id")) : null;
        String wu = p.get("with_user");
        if (wu != null && !wu.equals("true")) {
            throw ApiException.badRequest("with_user takes only 'true' (records that have a user ID), got '" + wu + "'");
        }
        this.withUser = wu != null;
        this.visibleElections = QueryParameters.list("visible_elections", p.get("visible_elections"));
        this.visibleAreas = QueryParameters.list("visible_areas", p.get("visible_areas"));
        String order = p.getOrDefault("order", "desc");
        if (!order.equals("desc") && !order.equals("asc")) {
            throw ApiException.badRequest("order must be desc or asc, got '" + order + "'");
        }
        this.desc = order.equals("desc");
        String s = p.get("sort");
        if (s == null) {
            // a statement-time window alone is served in statement-time order by its index
            boolean onlyStatementWindow = (statementFrom != null || statementTo != null) && equalityFilters() == 0
                    && !hasResiduals(false) && !hasIdBounds();
            s = onlyStatementWindow ? "statement_time" : "id";
        }
        if (!SORTS.contains(s)) {
            throw ApiException.badRequest("cannot sort by '" + s + "'; sorts: " + SORTS);
        }
        this.sort = s;
        checkSortFilters();
    }

    /** Parses a request's query parameters; 400 for an unknown or repeated one. */
    static ListingQuery parse(Map<String, List<String>> query) {
        Map<String, String> p = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            if (!PARAMETERS.contains(e.getKey())) {
                throw ApiException.badRequest("unknown parameter '" + e.getKey() + "'; the listing takes "
                        + new java.util.TreeSet<>(PARAMETERS));
            }
            if (e.getValue().size() != 1) {
                throw ApiException.badRequest("parameter '" + e.getKey() + "' is given " + e.getValue().size()
                        + " times; give it once (lists are comma-separated)");
            }
            p.put(e.getKey(), e.getValue().get(0));
        }
        return new ListingQuery(p);
    }

    private static Short kind(String v) {
        int code = StatementKinds.code(v);
        if (code < 0 && !v.isEmpty() && v.length() < 4 && v.chars().allMatch(Character::isDigit)) {
            code = Integer.parseInt(v);
            if (code >= StatementKinds.NAMES.size()) {
                code = -1;
            }
        }
        if (code < 0) {
            throw ApiException.badRequest("kind '" + QueryParameters.shown(v) + "' is not a statement kind; kinds: " + StatementKinds.NAMES);
        }
        return (short) code;
    }

    private static byte[] senderKey(String v) {
        byte[] k = null;
        if (v.length() == 64 && v.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            k = Hex.decode(v.toLowerCase(java.util.Locale.ROOT));
        } else if (v.length() >= 43 && v.length() <= 44) {
            try {
                k = java.util.Base64.getDecoder().decode(v);
            } catch (IllegalArgumentException e) {
                k = null;
            }
        }
        if (k == null || k.length != 32) {
            throw ApiException.badRequest("sender_key must be a 32-byte Ed25519 public key in hex (64 digits) or base64");
        }
        return k;
    }

    private int equalityFilters() {
        int n = 0;
        for (Object o : new Object[] {kind, userId, username, electionId, areaId, ballotId, senderKey}) {
            n += o == null ? 0 : 1;
        }
        return n;
    }

    private boolean hasIdBounds() {
        return fromId != null || toId != null || createdFrom != null || createdTo != null;
    }

    /** Filters other than the equality ones: with a user, visibility, and (if asked) the statement-time window. */
    private boolean hasResiduals(boolean statementWindow) {
        return withUser || visibleElections != null || visibleAreas != null
                || (statementWindow && (statementFrom != null || statementTo != null));
    }

    /** The column a sort pages on, or null for ID order. */
    private String sortColumn() {
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
            throw ApiException.badRequest("sorting by " + sort + " takes no filter but one on " + sort
                    + " itself (statement_time_from/_to for statement_time); every filter is served in ID order "
                    + "(sort=id, the default). Supported: sort=id with any filters; sort=<column> with a filter on that column");
        }
    }

    /** The path an ID-order listing takes. */
    Path path() {
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
    long window() {
        return (long) WINDOW_PAGES * limit;
    }

    /**
     * The page statement for ID order within [from, to), or for a sort by a column after
     * {@code after} (null on the first page). {@code senderId} is the resolved sender key (null when none
     * was asked).
     */
    Sql page(short boardId, long from, long to, Cursor.Position after, Integer senderId) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM records WHERE board_id = ?");
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
            if (after != null) {
                Object key = sortKey(column, after.key());
                // the plain bound lets the index scan start at the key; the row comparison breaks ties by ID
                sql.append(" AND ").append(column).append(desc ? " <= ?" : " >= ?");
                sql.append(" AND (").append(column).append(", id) ").append(desc ? "<" : ">").append(" (?, ?)");
                params.add(key);
                params.add(key);
                params.add(after.lastId());
            }
            String dir = desc ? " DESC" : "";
            sql.append(" ORDER BY ").append(column).append(dir).append(", id").append(dir);
        }
        sql.append(" LIMIT ?");
        params.add(limit);
        return new Sql(sql.toString(), params);
    }

    /** The sort key of a listed row for a cursor, as text. */
    String keyOf(Map<String, Object> row) {
        return switch (sort) {
            case "statement_time" -> Long.toString(micros(Timestamp.from(java.time.Instant.parse((String) row.get("statement_time")))));
            case "kind" -> Integer.toString(StatementKinds.code((String) row.get("kind")));
            default -> (String) row.get(sort);
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
            throw ApiException.badRequest("the cursor does not fit this sort; start again without a cursor");
        }
    }

    static long micros(Timestamp t) {
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

    /** How a count is answered. */
    enum CountSource { COUNTERS, ID_RANGE, CAPPED }

    /** The counters to add up for this count, or null when counters cannot answer it. */
    List<CounterKey> counterKeys() {
        if (hasIdBounds() || userId != null || username != null || ballotId != null || areaId != null
                || senderKey != null || statementFrom != null || statementTo != null || visibleAreas != null) {
            return null;
        }
        if (withUser) {
            return kind == null && electionId == null && visibleElections == null ? List.of(CounterKey.withUser()) : null;
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
    boolean countIsIdRange() {
        return hasIdBounds() && equalityFilters() == 0 && !hasResiduals(true);
    }

    /**
     * The capped count statement: at most {@link #COUNT_CAP} + 1 matching rows, found through an index
     * that bounds the rows read (a value's rows, a kind's or an election's IDs in a range, or a
     * statement-time window). Null when no index bounds it.
     */
    Sql cappedCount(short boardId, long from, long to, Integer senderId) {
        Path p = path();
        boolean statementWindowOnly = (statementFrom != null || statementTo != null) && equalityFilters() == 0
                && !hasResiduals(false) && !hasIdBounds();
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
        return new Sql(sql.toString(), params);
    }

    static final String COUNTABLE = "no filter; kind; election_id; kind and election_id; visible_elections (with kind); "
            + "with_user (from counters, exact); from_id/to_id/created_from/created_to alone (exact); user_id, username "
            + "or ballot_id with any other filters; kind or election_id with an ID range; a statement-time window alone "
            + "(capped at " + COUNT_CAP + ")";
}
