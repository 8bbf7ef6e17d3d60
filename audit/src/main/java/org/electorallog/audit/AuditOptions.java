package org.electorallog.audit;

import java.util.List;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.WitnessPolicy;

/**
 * What the audit checks beyond the projection's own consistency.
 *
 * @param logKeys                the log's checkpoint verifier keys; empty = checkpoint signatures not checked
 * @param requireSenderSignature every statement must carry a valid sender signature
 * @param systemKeys             system public keys; when non-empty every statement must carry a system signature by one
 * @param pageSize               records per keyset page (each page is one bounded index range)
 * @param witnesses              the witnesses whose stored cosignatures are verified and the quorum a checkpoint
 *                               marked witnessed must have ({@link CosignatureChecks}); NONE = cosignatures, if
 *                               any are stored, not checked
 */
public record AuditOptions(
        List<NoteVerifier> logKeys,
        boolean requireSenderSignature,
        List<byte[]> systemKeys,
        int pageSize,
        WitnessPolicy witnesses) {
    public static final int DEFAULT_PAGE = 10_000;

    public AuditOptions {
        logKeys = List.copyOf(logKeys);
        systemKeys = List.copyOf(systemKeys);
        if (pageSize < 256) {
            throw new IllegalArgumentException("audit page size must be at least 256, got " + pageSize);
        }
        if (witnesses == null) {
            throw new IllegalArgumentException("witnesses: WitnessPolicy.NONE when there are none");
        }
    }

    /** Options without witnesses. */
    public AuditOptions(
            List<NoteVerifier> logKeys, boolean requireSenderSignature, List<byte[]> systemKeys, int pageSize) {
        this(logKeys, requireSenderSignature, systemKeys, pageSize, WitnessPolicy.NONE);
    }

    public static AuditOptions of(List<NoteVerifier> logKeys) {
        return new AuditOptions(logKeys, false, List.of(), DEFAULT_PAGE);
    }

    /** The same options, verifying the cosignatures of {@code policy}'s witnesses. */
    public AuditOptions withWitnesses(WitnessPolicy policy) {
        return new AuditOptions(logKeys, requireSenderSignature, systemKeys, pageSize, policy);
    }
}
