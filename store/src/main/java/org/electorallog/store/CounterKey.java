package org.electorallog.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The key of a per-board counter (table {@code counters}, V1 and V5): a statement kind code or one
 * of two aggregates, and an election ID or all elections. The projector adds to these counters in
 * the batch transaction and the audit recounts them from the records, both through {@link #of}, so
 * the two can never count differently; the query API answers counts from them.
 *
 * @param kind       a statement kind code (statement {@code StatementKinds}), {@link #ALL_KINDS} or {@link #WITH_USER}
 * @param electionId an election ID, or {@link #ALL_ELECTIONS}
 */
public record CounterKey(short kind, String electionId) implements Comparable<CounterKey> {
    /** Every record, whatever its kind. */
    public static final short ALL_KINDS = -1;
    /** Records that carry a user ID (with {@link #ALL_ELECTIONS} only). */
    public static final short WITH_USER = -2;
    /** Every election, and records of no election. */
    public static final String ALL_ELECTIONS = "";

    private static final Comparator<CounterKey> ORDER =
            Comparator.comparingInt(CounterKey::kind).thenComparing(CounterKey::electionId);

    public CounterKey {
        Objects.requireNonNull(electionId, "electionId (use ALL_ELECTIONS)");
        if (kind < WITH_USER) {
            throw new IllegalArgumentException("no counter for kind " + kind);
        }
        if (kind == WITH_USER && !electionId.isEmpty()) {
            throw new IllegalArgumentException("the with-user counter is kept for all elections only");
        }
    }

    /** All records of the board. */
    public static CounterKey total() {
        return new CounterKey(ALL_KINDS, ALL_ELECTIONS);
    }

    /** Records with a user ID. */
    public static CounterKey withUser() {
        return new CounterKey(WITH_USER, ALL_ELECTIONS);
    }

    /** Records of a kind. */
    public static CounterKey ofKind(short kind) {
        return new CounterKey(kind, ALL_ELECTIONS);
    }

    /** Records of an election, any kind. */
    public static CounterKey ofElection(String electionId) {
        return new CounterKey(ALL_KINDS, electionId);
    }

    /** The counters one record adds 1 to: the total, its kind, its election and its kind in it, and with-user. */
    public static List<CounterKey> of(short kind, String electionId, boolean hasUser) {
        List<CounterKey> keys = new ArrayList<>(5);
        keys.add(total());
        keys.add(ofKind(kind));
        if (electionId != null && !electionId.isEmpty()) {
            keys.add(new CounterKey(kind, electionId));
            keys.add(ofElection(electionId));
        }
        if (hasUser) {
            keys.add(withUser());
        }
        return keys;
    }

    public boolean isTotal() {
        return kind == ALL_KINDS && electionId.isEmpty();
    }

    /** For messages: "counter kind 3", "counter all kinds election e1", "counter with a user". */
    public String describe() {
        String k = kind == ALL_KINDS ? "all kinds" : kind == WITH_USER ? "with a user" : "kind " + kind;
        return "counter " + k + (electionId.isEmpty() ? "" : " election " + electionId);
    }

    @Override
    public int compareTo(CounterKey o) {
        return ORDER.compare(this, o);
    }
}
