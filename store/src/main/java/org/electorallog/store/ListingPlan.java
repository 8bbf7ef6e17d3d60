package org.electorallog.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * How a {@link RecordFilter} is served: the index path of a listing (docs/decisions.md 19), the
 * counters that answer a count, and the size of a window. {@link ListingSql} writes the statements.
 */
public final class ListingPlan {
    private ListingPlan() {}

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

    /** The path an ID-order listing takes. */
    public static Path path(RecordFilter f) {
        if (f.sortColumn() != null) {
            return Path.SORT_INDEX;
        }
        if (f.userId != null || f.username != null || f.ballotId != null) {
            return Path.VALUE_ROWS;
        }
        boolean residual = f.hasResiduals(true) || f.areaId != null || f.senderKey != null;
        int equality = f.equalityFilters();
        if (!residual && equality == 0) {
            return Path.PRIMARY_KEY;
        }
        if (!residual && equality == 1 && f.kind != null) {
            return Path.KIND_INDEX;
        }
        if (!residual && equality == 1 && f.electionId != null) {
            return Path.ELECTION_INDEX;
        }
        return Path.WINDOW;
    }

    /** The IDs a window covers per request. */
    public static long window(RecordFilter f) {
        return (long) RecordFilter.WINDOW_PAGES * f.limit;
    }

    /** The counters to add up for this count, or null when counters cannot answer it. */
    public static List<CounterKey> counterKeys(RecordFilter f) {
        if (f.hasIdBounds()
                || f.userId != null
                || f.username != null
                || f.ballotId != null
                || f.areaId != null
                || f.senderKey != null
                || f.statementFrom != null
                || f.statementTo != null
                || f.visibleAreas != null) {
            return null;
        }
        if (f.withUser) {
            return f.kind == null && f.electionId == null && f.visibleElections == null
                    ? List.of(CounterKey.withUser())
                    : null;
        }
        short k = f.kind == null ? CounterKey.ALL_KINDS : f.kind;
        if (f.visibleElections != null) {
            if (f.electionId != null) {
                return null;
            }
            List<CounterKey> keys = new ArrayList<>();
            for (String e : new TreeSet<>(Arrays.asList(f.visibleElections))) {
                keys.add(new CounterKey(k, e));
            }
            return keys;
        }
        return List.of(new CounterKey(k, f.electionId == null ? CounterKey.ALL_ELECTIONS : f.electionId));
    }

    /** True when the count is the size of an ID range (only ID bounds or a created window). */
    public static boolean countIsIdRange(RecordFilter f) {
        return f.hasIdBounds() && f.equalityFilters() == 0 && !f.hasResiduals(true);
    }
}
