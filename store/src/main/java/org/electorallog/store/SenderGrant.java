package org.electorallog.store;

import java.time.Instant;
import java.util.List;

/**
 * One row of the sender registry ({@code sender_grants}, V9): {@code publicKey} may write
 * {@code kinds} on {@code board} for statements whose Kafka timestamp is in
 * [{@code validFrom}, {@code validUntil}). {@code board} {@value #ANY} is every board; {@code kinds}
 * {@code [}{@value #ANY}{@code ]} is every kind.
 */
@SuppressWarnings("ArrayRecordComponent") // a row, compared by grant_id
public record SenderGrant(
        long grantId,
        byte[] publicKey,
        String senderName,
        String board,
        List<String> kinds,
        Instant validFrom,
        Instant validUntil,
        Instant created,
        String createdBy,
        Instant revoked,
        String revokedBy,
        String revocationReason) {
    /** Every board, or every kind. */
    public static final String ANY = "*";

    public SenderGrant {
        kinds = List.copyOf(kinds);
    }

    /** True when the grant names this board (or every board) and this kind (or every kind). */
    public boolean covers(String boardName, String kind) {
        return (board.equals(ANY) || board.equals(boardName)) && (kinds.contains(ANY) || kinds.contains(kind));
    }

    /** True when a statement at {@code millis} (Kafka timestamp) falls in the validity. */
    public boolean validAt(long millis) {
        return validFrom.toEpochMilli() <= millis && (validUntil == null || millis < validUntil.toEpochMilli());
    }
}
