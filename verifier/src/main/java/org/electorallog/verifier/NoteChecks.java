package org.electorallog.verifier;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.Quorum;
import org.electorallog.core.SignedNote;

/**
 * What {@code verify-board} checks of the signed notes it is given besides the log signature: the
 * witness cosignatures on the latest checkpoint against a quorum (C2SP tlog-cosignature) and the
 * older checkpoints (each verified with the log key, of the same origin, not beyond the latest).
 */
final class NoteChecks {
    private NoteChecks() {}

    /** Counts the cosignatures of {@code witnesses} on {@code note} that verify; fewer than {@code quorum} is a problem. */
    static void cosignatures(String note, List<Cosigner.Verifier> witnesses, Quorum quorum, Consumer<String> problems) {
        SignedNote signed;
        try {
            signed = SignedNote.parse(note);
        } catch (ProofException e) {
            problems.accept("the checkpoint is not a signed note: " + e.getMessage());
            return;
        }
        List<String> cosigned = new ArrayList<>();
        List<Cosigner.Verifier> valid = new ArrayList<>();
        for (Cosigner.Verifier w : witnesses) {
            if (signed.signatures().stream().noneMatch(s -> s.name().equals(w.name()))) {
                continue;
            }
            try {
                w.verify(signed);
                cosigned.add(w.name());
                valid.add(w);
            } catch (ProofException e) {
                problems.accept("witness " + w.name() + "'s cosignature does not verify: " + e.getMessage());
            }
        }
        if (!quorum.met(valid)) {
            problems.accept("the checkpoint has " + cosigned.size() + " valid cosignature(s) of the witnesses given ("
                    + String.join(", ", cosigned) + "), the quorum is " + quorum.rule());
        }
    }

    /** The older checkpoints' roots by size, each verified with the log key and not beyond the latest. */
    static TreeMap<Long, byte[]> older(
            Checkpoint latest, List<String> notes, List<NoteVerifier> logKeys, Consumer<String> problems) {
        TreeMap<Long, byte[]> out = new TreeMap<>();
        for (String note : notes) {
            try {
                Checkpoint c = Checkpoint.open(note, logKeys);
                if (!c.origin().equals(latest.origin())) {
                    problems.accept(
                            "an older checkpoint is of origin '" + c.origin() + "', not '" + latest.origin() + "'");
                } else if (c.size() > latest.size()) {
                    problems.accept("an older checkpoint has size " + c.size() + ", beyond the latest's "
                            + latest.size() + ": the log was rolled back");
                } else {
                    out.put(c.size(), c.root());
                }
            } catch (ProofException e) {
                problems.accept("an older checkpoint does not verify with the log key: " + e.getMessage());
            }
        }
        return out;
    }
}
