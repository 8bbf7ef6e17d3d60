package org.electorallog.audit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import org.electorallog.core.Cosigner;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Cosignatures;

/**
 * The witness cosignatures the projection stored and serves with its checkpoints (store V13),
 * checked against the witnesses' keys: each stored line must be a valid C2SP tlog-cosignature
 * (cosignature/v1) by the witness it is stored under, over that very checkpoint; a checkpoint
 * marked witnessed must carry at least the quorum of valid cosignatures by the audit's witnesses;
 * and a cosignature of a witness the audit has no key for is reported as not checked, once per
 * witness. The query API appends these lines to the checkpoints it serves, so a forged line would
 * reach voters' clients as a witness's word: the audit is where the operator learns of it.
 */
final class CosignatureChecks {
    private CosignatureChecks() {}

    static void check(
            WitnessPolicy policy,
            List<CheckpointRow> checkpoints,
            SortedMap<Long, List<Cosignatures.Stored>> stored,
            SortedSet<Long> witnessed,
            AuditResult result) {
        if (policy.isEmpty()) {
            if (!stored.isEmpty() || !witnessed.isEmpty()) {
                result.add(
                        Finding.Kind.COSIGNATURES_NOT_CHECKED,
                        null,
                        "the board has witness cosignatures on " + stored.size() + " checkpoint(s) ("
                                + witnessed.size() + " marked witnessed) and the audit was given no witness keys "
                                + "(ELECTORAL_LOG_WITNESSES): they were not checked, so this audit cannot be clean");
            }
            return;
        }
        Map<String, WitnessPolicy.Entry> byId = new HashMap<>();
        policy.witnesses().forEach(w -> byId.put(w.id(), w));
        Map<Long, CheckpointRow> bySize = new HashMap<>();
        checkpoints.forEach(cp -> bySize.put(cp.size(), cp));
        Map<String, long[]> unchecked = new TreeMap<>(); // witness -> {count, first size}
        Map<Long, List<Cosigner.Verifier>> validBySize = new HashMap<>();
        for (Map.Entry<Long, List<Cosignatures.Stored>> e : stored.entrySet()) {
            long size = e.getKey();
            CheckpointRow cp = bySize.get(size);
            if (cp == null) {
                // the foreign key forbids it; a dropped constraint would not
                result.add(
                        Finding.Kind.COSIGNATURE_MISMATCH,
                        size,
                        "cosignatures are stored for size " + size + ", which has no checkpoint");
                continue;
            }
            for (Cosignatures.Stored s : e.getValue()) {
                WitnessPolicy.Entry w = byId.get(s.witness());
                if (w == null) {
                    unchecked.computeIfAbsent(s.witness(), k -> new long[] {0, size})[0]++;
                    continue;
                }
                String why = invalid(w, cp, s.line());
                if (why == null) {
                    validBySize.computeIfAbsent(size, k -> new ArrayList<>()).add(w.verifier());
                } else {
                    result.add(
                            Finding.Kind.COSIGNATURE_MISMATCH,
                            size,
                            "checkpoint at size " + size + ": the cosignature stored for witness " + s.witness() + " "
                                    + why);
                }
            }
        }
        unchecked.forEach((witness, n) -> result.add(
                Finding.Kind.COSIGNATURES_NOT_CHECKED,
                null,
                n[0] + " cosignature(s) stored for witness " + witness + " (first at size " + n[1]
                        + ") were not checked: the audit has no key for it (ELECTORAL_LOG_WITNESSES)"));
        for (long size : witnessed) {
            List<Cosigner.Verifier> valid = validBySize.getOrDefault(size, List.of());
            if (!policy.met(valid)) {
                result.add(
                        Finding.Kind.COSIGNATURE_MISMATCH,
                        size,
                        "checkpoint at size " + size + " is marked witnessed with " + valid.size()
                                + " valid cosignature(s) by the audit's witnesses; the quorum is "
                                + policy.describe());
            }
        }
    }

    /** Null when {@code line} is {@code w}'s valid cosignature of the checkpoint; else why not. */
    private static String invalid(WitnessPolicy.Entry w, CheckpointRow cp, String line) {
        try {
            SignedNote cosigned = SignedNote.parse(cp.note() + line);
            SignedNote.Signature s = w.verifier().cosignature(cosigned);
            return s.line().equals(line) ? null : "is not one signature line in its canonical form";
        } catch (ProofException | RuntimeException e) {
            return "does not verify: " + e.getMessage();
        }
    }
}
