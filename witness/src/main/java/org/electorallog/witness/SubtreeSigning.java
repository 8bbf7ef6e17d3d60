package org.electorallog.witness;

import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SubtreeProof;
import org.electorallog.core.SubtreeRequest;

/**
 * C2SP tlog-witness {@code sign-subtree} (optional in the spec; served by a witness, and a mirror,
 * with an ML-DSA-44 key): given a checkpoint this cosigner cosigned and a subtree consistency proof
 * (draft-ietf-plants-merkle-tree-certs section 4.4) from a subtree to it, the cosigner's {@code
 * subtree/v1} cosignature of the subtree, timestamp 0. 400 for a malformed request or a subtree that
 * is not one or ends past the checkpoint, 404 for a log it does not follow, 403 when the checkpoint
 * carries no valid cosignature of one of its keys, 429 past the log's rate, 422 when the proof does
 * not verify. Nothing is
 * stored: the checkpoint it cosigned already binds the subtree.
 */
public final class SubtreeSigning {
    private SubtreeSigning() {}

    /** Whether {@code keys} can sign subtrees (an ML-DSA-44 key among them). */
    public static boolean canSign(List<Cosigner.Key> keys) {
        return keys.stream().anyMatch(Cosigner.Key::postQuantum);
    }

    /**
     * Decides one request body for the cosigner with {@code keys}, following {@code logs}, each log
     * held to {@code rate} (429 with Retry-After past it) once the request is its own to sign.
     */
    static Witness.Answer answer(String body, List<Cosigner.Key> keys, FollowedLogs logs, SubmissionRate rate) {
        SubtreeRequest request;
        SignedNote note;
        Checkpoint cp;
        try {
            request = SubtreeRequest.parse(body);
            note = SignedNote.parse(request.checkpointNote());
            cp = Checkpoint.parse(note.text());
        } catch (ProofException | IllegalArgumentException e) {
            return Witness.Answer.text(400, "malformed sign-subtree request: " + e.getMessage());
        }
        if (!SubtreeProof.isValid(request.start(), request.end()) || request.end() > cp.size()) {
            return Witness.Answer.text(
                    400,
                    "[" + request.start() + ", " + request.end() + ") is not a subtree of the checkpoint of size "
                            + cp.size() + " (draft-ietf-plants-merkle-tree-certs section 4.1)");
        }
        if (logs.keysFor(cp.origin()).isEmpty()) {
            return Witness.Answer.text(404, "this cosigner does not follow the log '" + cp.origin() + "'");
        }
        if (!cosignedByOneOf(note, keys)) {
            return Witness.Answer.text(
                    403, "the checkpoint carries no valid cosignature of this cosigner's keys: send one it cosigned");
        }
        long wait = rate.secondsToWait(cp.origin());
        if (wait > 0) {
            return new Witness.Answer(
                    429,
                    "text/plain; charset=utf-8",
                    "too many requests for '" + cp.origin() + "'; retry in " + wait + " s\n",
                    wait);
        }
        try {
            SubtreeProof.verify(request.start(), request.end(), cp.size(), request.hash(), cp.root(), request.proof());
        } catch (ProofException e) {
            return Witness.Answer.text(422, "the subtree consistency proof does not verify: " + e.getMessage());
        }
        List<SignedNote.Signature> lines = new ArrayList<>();
        for (Cosigner.Key k : keys) {
            if (k.postQuantum()) {
                lines.add(k.cosignSubtree(cp.origin(), request.start(), request.end(), request.hash()));
            }
        }
        StringBuilder out = new StringBuilder();
        lines.forEach(l -> out.append(l.line()));
        return new Witness.Answer(200, "text/plain; charset=utf-8", out.toString());
    }

    private static boolean cosignedByOneOf(SignedNote note, List<Cosigner.Key> keys) {
        for (Cosigner.Key k : keys) {
            try {
                Cosigner.Verifier.parse(k.verifierKey()).cosignature(note);
                return true;
            } catch (ProofException | IllegalArgumentException absent) {
                // the next key
            }
        }
        return false;
    }
}
