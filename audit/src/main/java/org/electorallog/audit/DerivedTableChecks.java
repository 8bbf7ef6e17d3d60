package org.electorallog.audit;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.electorallog.store.BoardState;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Counters;
import org.electorallog.store.Deliveries;
import org.electorallog.store.HourlyCounts;
import org.electorallog.store.LogReader;

/**
 * The audit's checks of the tables derived from the records (BRIEF invariant 5): the counters and
 * the hourly counts against what the records count, and the deliveries table against the records'
 * delivery IDs. Each finding goes into the audit's result.
 */
final class DerivedTableChecks {
    private DerivedTableChecks() {}

    static void counters(LogReader c, short boardId, Map<CounterKey, Long> counted, AuditResult result) {
        Map<CounterKey, Long> stored = new HashMap<>();
        for (Counters.Row row : c.counters(boardId)) {
            try {
                stored.put(new CounterKey(row.kind(), row.electionId()), row.n());
            } catch (IllegalArgumentException | NullPointerException e) {
                result.add(
                        Finding.Kind.COUNTER_MISMATCH,
                        null,
                        "counter row (kind " + row.kind() + ", election " + row.electionId()
                                + ") is no counter the projector keeps: " + e.getMessage());
            }
        }
        Set<CounterKey> keys = new TreeSet<>(stored.keySet());
        keys.addAll(counted.keySet());
        for (CounterKey k : keys) {
            long a = stored.getOrDefault(k, 0L);
            long b = counted.getOrDefault(k, 0L);
            if (a != b) {
                result.add(
                        Finding.Kind.COUNTER_MISMATCH, null, k.describe() + " is " + a + " but the records count " + b);
            }
        }
    }

    /**
     * The board state's seal (store V17) against the records: a board is sealed exactly when its
     * first BOARD_SEALED record is its last record ({@code firstSeal}: that record's ID, or -1).
     */
    static void seal(BoardState state, long firstSeal, AuditResult result) {
        long last = state.size() - 1;
        if (firstSeal >= 0 && firstSeal != last) {
            result.add(
                    Finding.Kind.SEAL_MISMATCH,
                    firstSeal,
                    "record " + firstSeal + " seals the board but " + (last - firstSeal)
                            + " record(s) follow it; the projector keeps none after a seal");
        }
        if (state.sealed() && firstSeal != last) {
            result.add(
                    Finding.Kind.SEAL_MISMATCH,
                    null,
                    "the board state says sealed, but its last record " + last + " is not its first seal");
        }
        if (!state.sealed() && firstSeal >= 0) {
            result.add(
                    Finding.Kind.SEAL_MISMATCH,
                    firstSeal,
                    "record " + firstSeal + " seals the board but the board state says it is open");
        }
    }

    /**
     * The board state's first record in the committed form (store V23) against the records': a
     * column cleared or moved behind the projector's back would let statements in the clear back in.
     */
    static void committedFrom(BoardState state, long firstCommitted, AuditResult result) {
        long stored = state.committedFrom() == null ? -1 : state.committedFrom();
        if (stored != firstCommitted) {
            result.add(
                    Finding.Kind.COMMITTED_FORM_MISMATCH,
                    firstCommitted < 0 ? null : firstCommitted,
                    "the board state says "
                            + (stored < 0
                                    ? "the board is not in the committed form"
                                    : "committed form since record " + stored)
                            + ", the records say "
                            + (firstCommitted < 0 ? "none is in it" : "since record " + firstCommitted));
        }
    }

    /** The hourly counts (store V11) against the records' statement times and kinds. */
    static void hourlyCounts(LogReader c, short boardId, Map<HourlyCounts.Key, Long> counted, AuditResult result) {
        Map<HourlyCounts.Key, Long> stored = c.hourlyCounts(boardId);
        Set<HourlyCounts.Key> keys = new TreeSet<>(
                Comparator.comparingLong(HourlyCounts.Key::hourMillis).thenComparing(HourlyCounts.Key::kind));
        keys.addAll(stored.keySet());
        keys.addAll(counted.keySet());
        for (HourlyCounts.Key k : keys) {
            long a = stored.getOrDefault(k, 0L);
            long b = counted.getOrDefault(k, 0L);
            if (a != b) {
                result.add(
                        Finding.Kind.COUNTER_MISMATCH,
                        null,
                        "hourly count of kind " + k.kind() + " at " + Instant.ofEpochMilli(k.hourMillis()) + " is " + a
                                + " but the records count " + b);
            }
        }
    }

    /**
     * Delivery IDs are unique per board because every record has its key in deliveries (V15), whose
     * primary key refuses a repeat. So the check is that the primary key is there and valid, and that
     * deliveries holds exactly the rows the records call for: as many, with the same sum of
     * fingerprints (one range scan of the board's keys, not a probe per record). If either fails, the
     * records are searched for repeated delivery IDs, each reported.
     */
    static void deliveryIds(LogReader c, short boardId, Recount n, AuditResult result) {
        boolean indexed = c.deliveriesUniquelyIndexed();
        if (!indexed) {
            result.add(
                    Finding.Kind.DUPLICATE_DELIVERY_ID,
                    null,
                    "the primary key of deliveries is missing or invalid: delivery IDs are not guaranteed unique");
        }
        Deliveries.Fingerprint stored = c.deliveryFingerprint(boardId);
        boolean matching = stored.rows() == n.deliveryRows && stored.sum().equals(n.deliverySum);
        if (!matching) {
            result.add(
                    Finding.Kind.DUPLICATE_DELIVERY_ID,
                    null,
                    "deliveries holds " + stored.rows() + " delivery keys of this board that do not match the "
                            + n.deliveryRows + " records' delivery IDs: a repeat would not be refused");
        }
        if (!indexed || !matching) {
            c.repeatedDeliveryIds(
                    boardId,
                    (d, id) -> result.add(Finding.Kind.DUPLICATE_DELIVERY_ID, id, "delivery ID " + d + " is repeated"));
        }
    }
}
