package org.electorallog.audit;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.electorallog.core.TileTree;
import org.electorallog.statement.BoardRules;
import org.electorallog.store.AuditRow;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Deliveries;
import org.electorallog.store.HourlyCounts;

/** The recomputed tree and what it has counted so far. */
final class Recount {
    final TileTree tree = TileTree.empty();
    final Map<CounterKey, Long> counters = new HashMap<>();
    final Map<HourlyCounts.Key, Long> hourly = new HashMap<>();
    final Map<Long, byte[]> rootsAt = new HashMap<>();
    final NavigableSet<Long> wanted = new TreeSet<>();
    long expected;
    long records;
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

    void append(byte[] leaf) {
        tree.appendLeafHash(leaf);
        expected++;
        if (wanted.contains(tree.size())) {
            rootsAt.put(tree.size(), tree.root());
        }
    }
}
