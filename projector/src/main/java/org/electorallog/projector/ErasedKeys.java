package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.electorallog.store.LogWriter;
import org.electorallog.store.SqlDataKeys;

/**
 * The batch transaction's part in the committed form (docs/personal-data.md, "The projection"):
 * events whose data key was erased since they were decoded, or whose values were erased by user
 * ({@code personal_keys.erased_statements}, V24: a replay meets them again), lose their values and
 * openings; the others' openings go into their records' rows with them (store V21, {@link PendingEvent#content}).
 */
final class ErasedKeys {
    private ErasedKeys() {}

    /**
     * {@code events}, each whose data key is erased by now without its values. Locks the keys' rows
     * until the transaction ends ({@link SqlDataKeys#erasedAmong}), so an erasure cannot slip
     * between this check and the commit.
     */
    static List<PendingEvent> withoutErased(LogWriter c, List<PendingEvent> events) {
        Set<String> keys = new TreeSet<>();
        List<byte[]> leaves = new ArrayList<>();
        for (PendingEvent e : events) {
            if (e.keyId() != null) {
                keys.add(e.keyId());
                leaves.add(e.leafHash());
            }
        }
        if (keys.isEmpty()) {
            return events;
        }
        Set<String> erased = c.erasedKeysAmong(keys);
        Set<ByteBuffer> erasedStatements = c.erasedStatementsAmong(leaves);
        if (erased.isEmpty() && erasedStatements.isEmpty()) {
            return events;
        }
        List<PendingEvent> out = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            boolean gone = e.keyId() != null
                    && (erased.contains(e.keyId()) || erasedStatements.contains(ByteBuffer.wrap(e.leafHash())));
            out.add(gone ? e.withoutValues() : e);
        }
        return out;
    }
}
