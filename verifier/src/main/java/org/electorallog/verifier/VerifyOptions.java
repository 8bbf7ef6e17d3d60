package org.electorallog.verifier;

import java.util.List;
import java.util.function.Function;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.Quorum;
import org.electorallog.core.TlogPolicy;

/**
 * What {@link BoardVerifier} checks a board against (verify-board's options).
 *
 * @param logKeys  the log's verifier keys
 * @param origin   the checkpoint origin expected, or null
 * @param witnesses witnesses whose cosignatures count
 * @param quorum   how many of them must have cosigned
 * @param older    older signed checkpoints of the board to check against the rebuilt tree
 * @param board    the board the entries must be of, or null: the first entry's
 * @param systemKeys the voting system's Ed25519 keys; empty: system signatures are not checked
 * @param registry the sender registry export to check each record's sender with, or null
 * @param boards   other boards of the same log by name (the board a LOG_CONTINUATION names), or
 *                 null when there is no source for them
 * @param rule     the quorum rule over the witnesses' valid cosignatures (a C2SP tlog-policy's); null:
 *                 at least {@code quorum} of them
 */
public record VerifyOptions(
        List<NoteVerifier> logKeys,
        String origin,
        List<Cosigner.Verifier> witnesses,
        int quorum,
        List<String> older,
        String board,
        List<byte[]> systemKeys,
        RegistryExport registry,
        Function<String, TlogFiles> boards,
        Quorum rule) {
    public VerifyOptions {
        logKeys = List.copyOf(logKeys);
        witnesses = List.copyOf(witnesses);
        older = List.copyOf(older);
        systemKeys = List.copyOf(systemKeys);
        if (quorum < 0 || quorum > witnesses.size()) {
            throw new IllegalArgumentException(
                    "the quorum must be between 0 and the " + witnesses.size() + " witness key(s) given");
        }
        if (rule == null) {
            rule = Quorum.atLeast(quorum);
        }
    }

    /** With the quorum as a number of the witnesses given. */
    public VerifyOptions(
            List<NoteVerifier> logKeys,
            String origin,
            List<Cosigner.Verifier> witnesses,
            int quorum,
            List<String> older,
            String board,
            List<byte[]> systemKeys,
            RegistryExport registry,
            Function<String, TlogFiles> boards) {
        this(logKeys, origin, witnesses, quorum, older, board, systemKeys, registry, boards, null);
    }

    /**
     * From a C2SP tlog-policy file ({@link TlogPolicy}): its logs and witnesses, and its quorum
     * rule; the other options as given.
     */
    public static VerifyOptions of(
            TlogPolicy policy,
            String origin,
            List<String> older,
            String board,
            List<byte[]> systemKeys,
            RegistryExport registry,
            Function<String, TlogFiles> boards) {
        return new VerifyOptions(
                policy.logKeys(), origin, policy.witnessKeys(), 0, older, board, systemKeys, registry, boards, policy);
    }

    /** Signatures and quorum only: no board name, system keys, registry or other boards. */
    public VerifyOptions(
            List<NoteVerifier> logKeys,
            String origin,
            List<Cosigner.Verifier> witnesses,
            int quorum,
            List<String> older) {
        this(logKeys, origin, witnesses, quorum, older, null, List.of(), null, null);
    }

    /** These options for another board of the log (a continued one): its own name, no older checkpoints. */
    VerifyOptions forBoard(String name) {
        return new VerifyOptions(
                logKeys, origin, witnesses, quorum, List.of(), name, systemKeys, registry, boards, rule);
    }
}
