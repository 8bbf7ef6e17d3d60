package org.electorallog.audit;

import java.util.List;
import org.electorallog.core.NoteVerifier;

/**
 * What the audit checks beyond the projection's own consistency.
 *
 * @param logKeys                the log's checkpoint verifier keys; empty = checkpoint signatures not checked
 * @param requireSenderSignature every statement must carry a valid sender signature
 * @param systemKeys             system public keys; when non-empty every statement must carry a system signature by one
 * @param pageSize               records per keyset page (each page is one bounded index range)
 */
public record AuditOptions(
        List<NoteVerifier> logKeys, boolean requireSenderSignature, List<byte[]> systemKeys, int pageSize) {
    public static final int DEFAULT_PAGE = 10_000;

    public AuditOptions {
        logKeys = List.copyOf(logKeys);
        systemKeys = List.copyOf(systemKeys);
        if (pageSize < 256) {
            throw new IllegalArgumentException("audit page size must be at least 256, got " + pageSize);
        }
    }

    public static AuditOptions of(List<NoteVerifier> logKeys) {
        return new AuditOptions(logKeys, false, List.of(), DEFAULT_PAGE);
    }
}
