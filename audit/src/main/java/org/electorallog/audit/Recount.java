package org.electorallog.audit;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import org.electorallog.statement.BoardRules;
import org.electorallog.store.AuditRow;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Deliveries;
import org.electorallog.store.HourlyCounts;
import org.electorallog.verifier.EntryChecks;
import org.electorallog.verifier.TreeCheck;

/**
 * The audit's walk so far: the tree rebuilt from the records and the statements' checks (the
 * verifier's {@link TreeCheck} and {@link EntryChecks}), and what it has counted.
 */
final class Recount {
    /** The tree rebuilt from the records, checked against the stored tiles and checkpoints. */
    TreeCheck tree;

    /** The statements' own checks, in record order. */
    EntryChecks entries;

    final Map<CounterKey, Long> counters = new HashMap<>();
    final Map<HourlyCounts.Key, Long> hourly = new HashMap<>();
    long records;
    /** Records missing after the last row (no leaf appended for them). */
    long missing;
    /** The delivery rows the records read so far call for: how many, and the sum of their fingerprints. */
    long deliveryRows;

    BigInteger deliverySum = BigInteger.ZERO;
    /** The audited board (its delivery keys begin with its ID). */
    short boardId;

    /** The board rules walked over the records so far: where the first seal is (issue 42). */
    final BoardRules rules = BoardRules.empty();

    /** The ID of the board's first record in the committed form, or -1 (issue 61, store V23). */
    long firstCommitted = -1;

    void delivery(AuditRow row) {
        deliveryRows++;
        deliverySum = deliverySum.add(
                BigInteger.valueOf(Deliveries.fingerprint(Deliveries.key(boardId, row.deliveryId()), row.id())));
    }

    /** The ID the next record must have. */
    long expected() {
        return tree.size() + missing;
    }
}
