package org.electorallog.verifier;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;

/**
 * A board's checkpoint history for {@code verify-board --report} (issue 69 item 4): up to {@link
 * BoardObservations#HISTORY_SAMPLES} checkpoints read evenly over the board's sizes ({@link
 * TlogFiles#checkpointFrom}), each with the witnesses whose cosignature on it verifies (C2SP
 * tlog-cosignature) and the time each states. {@link BoardVerifier} checks the notes read as older
 * checkpoints: each one's log signature, its root against the rebuilt tree.
 */
final class CheckpointHistory {
    private CheckpointHistory() {}

    /**
     * Reads the history of the board whose latest checkpoint is {@code cp} (note {@code latest})
     * into {@code observations} and returns the older notes read; a note that is no checkpoint, or a
     * cosignature on an older one that does not verify, is a problem (the latest's cosignatures are
     * the quorum check's to report).
     */
    static List<String> read(
            TlogFiles files,
            Checkpoint cp,
            String latest,
            List<Cosigner.Verifier> witnesses,
            BoardObservations observations,
            Consumer<String> problems)
            throws IOException {
        List<String> notes = new ArrayList<>();
        long reached = -1;
        for (long s : BoardObservations.sampleSizes(cp.size())) {
            if (s <= reached) {
                continue;
            }
            byte[] b = files.checkpointFrom(s);
            if (b == null) {
                break; // the source keeps no history
            }
            String n = new String(b, StandardCharsets.UTF_8);
            long size;
            try {
                size = Checkpoint.parse(SignedNote.parse(n).text()).size();
            } catch (ProofException e) {
                problems.accept(
                        "the board's checkpoint at or past size " + s + " is not a checkpoint: " + e.getMessage());
                continue;
            }
            reached = Math.max(size, s);
            if (size < cp.size()) { // beyond the latest: the board grew since; the latest is added below
                notes.add(n);
                observations.checkpoint(
                        new BoardObservations.HistoricCheckpoint(size, cosigned(n, size, witnesses, problems)));
            }
        }
        observations.checkpoint(
                new BoardObservations.HistoricCheckpoint(cp.size(), cosigned(latest, cp.size(), witnesses, p -> {})));
        return notes;
    }

    /** The witnesses whose cosignature on {@code note} verifies, with their times; one that does not is a problem. */
    private static List<BoardObservations.Cosigned> cosigned(
            String note, long size, List<Cosigner.Verifier> witnesses, Consumer<String> problems) {
        List<BoardObservations.Cosigned> out = new ArrayList<>();
        SignedNote signed;
        try {
            signed = SignedNote.parse(note);
        } catch (ProofException e) {
            return out; // the log signature's check reports it
        }
        for (Cosigner.Verifier w : witnesses) {
            if (signed.signatures().stream().noneMatch(s -> s.name().equals(w.name()))) {
                continue;
            }
            try {
                out.add(new BoardObservations.Cosigned(w.name(), w.verify(signed)));
            } catch (ProofException e) {
                problems.accept("witness " + w.name() + "'s cosignature on the checkpoint at size " + size
                        + " does not verify: " + e.getMessage());
            }
        }
        return out;
    }
}
