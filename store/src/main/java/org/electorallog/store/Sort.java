package org.electorallog.store;

import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;

/**
 * The orders a listing of a board's records takes: its name in the API, the column it pages on
 * (none for ID order: {@code created} follows the IDs), and how a page's last sort key is written
 * into a cursor and read back (docs/decisions.md 19: each column sort is served by its index, keyset
 * on (column, ID)).
 */
public enum Sort {
    ID("id", null),
    CREATED("created", null),
    STATEMENT_TIME("statement_time", "statement_ts"),
    KIND("kind", "kind"),
    USER_ID("user_id", "user_id"),
    USERNAME("username", "username"),
    BALLOT_ID("ballot_id", "ballot_id"),
    ELECTION_ID("election_id", "election_id");

    /** The name in the API ({@code ?sort=}). */
    public final String apiName;
    /** The column the sort pages on; null for ID order. */
    public final String column;

    Sort(String apiName, String column) {
        this.apiName = apiName;
        this.column = column;
    }

    /** Every API name, in the API's order. */
    public static final List<String> API_NAMES =
            Arrays.stream(values()).map(s -> s.apiName).toList();

    /** The sort of an API name; IllegalArgumentException naming the sorts otherwise. */
    public static Sort of(String apiName) {
        for (Sort s : values()) {
            if (s.apiName.equals(apiName)) {
                return s;
            }
        }
        throw new IllegalArgumentException("cannot sort by '" + apiName + "'; sorts: " + API_NAMES);
    }

    /** Whether the listing is in ID order (no column keyset). */
    public boolean idOrder() {
        return column == null;
    }

    /** Whether records without the column are left out (a nullable column's sort lists those that have it). */
    public boolean nullable() {
        return this == USER_ID || this == USERNAME || this == BALLOT_ID || this == ELECTION_ID;
    }

    /** A listed record's sort key as cursor text. */
    public String keyOf(StoredRecord row) {
        return switch (this) {
            case STATEMENT_TIME -> Long.toString(micros(Timestamp.from(row.statementTime())));
            case KIND -> Short.toString(row.kind());
            case USER_ID -> row.fields().userId();
            case USERNAME -> row.fields().username();
            case BALLOT_ID -> row.fields().ballotId();
            case ELECTION_ID -> row.fields().electionId();
            case ID, CREATED -> throw new IllegalStateException("no sort key in ID order");
        };
    }

    /** A cursor's key text as the column's value; IllegalArgumentException when it does not fit. */
    public Object parseKey(String key) {
        try {
            return switch (this) {
                case STATEMENT_TIME -> {
                    long micros = Long.parseLong(key);
                    Timestamp t = new Timestamp(Math.floorDiv(micros, 1000));
                    t.setNanos((int) Math.floorMod(micros, 1_000_000L) * 1000);
                    yield t;
                }
                case KIND -> Short.parseShort(key);
                case ID, CREATED -> throw new IllegalStateException("no sort key in ID order");
                default -> key;
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the cursor does not fit this sort; start again without a cursor", e);
        }
    }

    /** A timestamp as microseconds since the epoch (PostgreSQL's precision). */
    public static long micros(Timestamp t) {
        return Math.floorDiv(t.getTime(), 1000) * 1_000_000L + t.getNanos() / 1000;
    }
}
