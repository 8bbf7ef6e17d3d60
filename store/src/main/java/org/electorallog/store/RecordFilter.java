package org.electorallog.store;

import java.time.Instant;

/**
 * The filters and sort of one listing or count of a board's records: a value, checked when built;
 * {@link ListingPlan} decides how it is served and {@link ListingSql} writes the statement. Every
 * statement is parameterized and read bounded (docs/decisions.md, "Listing indexes
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

    public final Sort sort;
    public final boolean desc;
    public final int limit;
    public final Short kind;
    public final String userId;
    public final String username;
    public final String electionId;
    public final String areaId;
    public final String ballotId;
    public final byte[] senderKey;
    public final Instant createdFrom;
    public final Instant createdTo;
    public final Instant statementFrom;
    public final Instant statementTo;
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
        public Instant createdFrom;
        public Instant createdTo;
        public Instant statementFrom;
        public Instant statementTo;
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
            s = statementWindowOnly() ? Sort.STATEMENT_TIME.apiName : Sort.ID.apiName;
        }
        this.sort = Sort.of(s);
        checkSortFilters();
    }

    /** How many of the equality filters (kind, user, username, election, area, ballot, sender) are set. */
    int equalityFilters() {
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
    boolean hasResiduals(boolean statementWindow) {
        return withUser
                || visibleElections != null
                || visibleAreas != null
                || (statementWindow && (statementFrom != null || statementTo != null));
    }

    /** The column a sort pages on, or null for ID order. */
    public String sortColumn() {
        return sort.column;
    }

    /** A statement-time window and nothing else: served in statement-time order by its index. */
    boolean statementWindowOnly() {
        return (statementFrom != null || statementTo != null)
                && equalityFilters() == 0
                && !hasResiduals(false)
                && !hasIdBounds();
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
                    "sorting by " + sort.apiName + " takes no filter but one on " + sort
                            + " itself (statement_time_from/_to for statement_time); every filter is served in ID order "
                            + "(sort=id, the default). Supported: sort=id with any filters; sort=<column> with a filter on that column");
        }
    }

    public static final String COUNTABLE =
            "no filter; kind; election_id; kind and election_id; visible_elections (with kind); "
                    + "with_user (from counters, exact); from_id/to_id/created_from/created_to alone (exact); user_id, username "
                    + "or ballot_id with any other filters; kind or election_id with an ID range; a statement-time window alone "
                    + "(capped at " + COUNT_CAP + ")";
}
