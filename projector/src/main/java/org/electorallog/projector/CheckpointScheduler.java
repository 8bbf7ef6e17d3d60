package org.electorallog.projector;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.BoardState;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.LogWriter;

/**
 * When the boards of one task get a signed checkpoint: a written board is signed once its interval
 * has passed since its last checkpoint (every batch when the interval is zero), from the board state
 * as stored in the signing transaction (C2SP tlog-checkpoint, signed-note).
 *
 * <p>When the log has an ML-DSA-44 key, a checkpoint also carries its signature (C2SP
 * tlog-cosignature {@code subtree/v1}) if the board is the heads board or sealed, or its last one is
 * {@code postQuantumEvery} old (decision 146): ten times Ed25519's cost, so not on every checkpoint of
 * a thousand busy boards.
 */
final class CheckpointScheduler {
    private final NoteSigner signer;
    private final long everyMillis;
    private final long postQuantumMillis;
    /** When each board's checkpoint last carried the ML-DSA-44 signature (this instance's clock). */
    private final Map<String, Long> lastPostQuantum = new HashMap<>();

    private Map<String, Long> lastPostQuantumAtBegin;
    /** Boards written since their last signed checkpoint, and when they were first written since. */
    private final Map<String, Long> unsigned = new LinkedHashMap<>();

    private final Map<String, Long> lastSigned = new HashMap<>();

    /**
     * Both maps as they were when the open batch transaction began ({@link #began}), for {@link
     * #rolledBack}; null when no batch transaction is open.
     */
    private Map<String, Long> unsignedAtBegin;

    private Map<String, Long> lastSignedAtBegin;

    CheckpointScheduler(NoteSigner signer, Duration every, Duration postQuantumEvery) {
        this.signer = signer;
        this.everyMillis = every.toMillis();
        this.postQuantumMillis = postQuantumEvery.toMillis();
    }

    /** Notes that a batch transaction begins: what it changes here is undone by {@link #rolledBack}. */
    void began() {
        unsignedAtBegin = new LinkedHashMap<>(unsigned);
        lastSignedAtBegin = new HashMap<>(lastSigned);
        lastPostQuantumAtBegin = new HashMap<>(lastPostQuantum);
    }

    /** The batch transaction committed: its checkpoints are stored. */
    void committed() {
        unsignedAtBegin = null;
        lastSignedAtBegin = null;
        lastPostQuantumAtBegin = null;
    }

    /**
     * After the batch transaction rolled back: its checkpoints were not stored, so the boards it
     * signed are unsigned again and their intervals run from their last stored checkpoint. Nothing
     * to undo when no batch transaction was open (it failed before it began).
     */
    void rolledBack() {
        if (unsignedAtBegin == null) {
            return;
        }
        unsigned.clear();
        unsigned.putAll(unsignedAtBegin);
        lastSigned.clear();
        lastSigned.putAll(lastSignedAtBegin);
        lastPostQuantum.clear();
        lastPostQuantum.putAll(lastPostQuantumAtBegin);
        committed();
    }

    /** Notes that a board was written at {@code nowMillis}. */
    void written(String board, long nowMillis) {
        unsigned.putIfAbsent(board, nowMillis);
    }

    /**
     * Notes that a written board was sealed: its checkpoint at the sealed size is signed in this
     * batch, whatever its interval, so the witnesses see the end of the board at once (issue 42).
     */
    void sealed(String board) {
        lastSigned.put(board, Long.MIN_VALUE / 2);
    }

    /** Whether some written board has no signed checkpoint of what was written yet. */
    boolean anyUnsigned() {
        return !unsigned.isEmpty();
    }

    /** Whether some written board's interval has passed. */
    boolean due(long nowMillis) {
        for (String board : unsigned.keySet()) {
            if (due(board, nowMillis)) {
                return true;
            }
        }
        return false;
    }

    private boolean due(String board, long nowMillis) {
        return everyMillis == 0 || nowMillis - lastSigned.getOrDefault(board, Long.MIN_VALUE / 2) >= everyMillis;
    }

    /** Signs a checkpoint of every written board whose interval has passed, in the caller's transaction. */
    void signDue(LogWriter c, long nowMillis) {
        for (Iterator<String> it = unsigned.keySet().iterator(); it.hasNext(); ) {
            String board = it.next();
            if (due(board, nowMillis)) {
                BoardState s = c.reads().state(board).orElse(null);
                if (s != null) {
                    sign(c, s, nowMillis);
                }
                lastSigned.put(board, nowMillis);
                it.remove();
            }
        }
    }

    /** Signs every board whose current size has no checkpoint yet (after a predecessor died between a batch and its checkpoint). */
    void signUncheckpointed(LogWriter c) {
        long now = System.currentTimeMillis();
        for (BoardState s : c.boardsWithoutCurrentCheckpoint()) {
            sign(c, s, now);
        }
    }

    private void sign(LogWriter c, BoardState s, long nowMillis) {
        if (s.size() == 0) {
            return;
        }
        String board = s.board().name();
        boolean postQuantum = signer.postQuantum().isPresent()
                && (board.equals(HeadsBoard.NAME)
                        || s.sealed()
                        || nowMillis - lastPostQuantum.getOrDefault(board, Long.MIN_VALUE / 2) >= postQuantumMillis);
        if (postQuantum) {
            lastPostQuantum.put(board, nowMillis);
        }
        String note = new Checkpoint(s.board().origin(), s.size(), s.root())
                .sign(signer, postQuantum, Math.floorDiv(nowMillis, 1000L));
        c.addCheckpoint(s.board().id(), new CheckpointRow(s.size(), s.root(), note));
    }
}
