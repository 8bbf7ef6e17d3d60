package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.statement.LogStatements;
import org.electorallog.store.LogWriter;
import org.electorallog.store.SenderGrant;

/**
 * The projector's side of the sender registry (store V9, docs/security.md "Writers"): in the batch
 * transaction, reads the grants of the batch's sender keys and refuses the statements no grant
 * covers. The time compared with a grant's validity is the event's Kafka timestamp, the time the
 * projection records as {@code created}; with the topic's {@code message.timestamp.type} at
 * {@code LogAppendTime} it is the broker's and a sender cannot backdate it.
 *
 * <p>The decision is a pure function of the grants and the event, so a replay with the same registry
 * refuses the same events. Grants are only ever added or closed from their time on (never backdated:
 * the admin endpoint and the CLI refuse a revocation in the past), so statements accepted before a
 * revocation stay accepted in any replay.
 */
final class SenderRegistry {
    private SenderRegistry() {}

    /** Why a statement is refused: the dead letter's reason and message. */
    record Refusal(BadEventException.Reason reason, String message) {}

    /**
     * Splits {@code events} of one board into those the registry allows (returned, in order) and
     * those it refuses (added to {@code refused}).
     */
    static List<PendingEvent> allowed(
            LogWriter c, String board, List<PendingEvent> events, List<BoardWriter.Refused> refused) {
        Set<ByteBuffer> keys = new LinkedHashSet<>();
        for (PendingEvent e : events) {
            if (!isLogs(e)) {
                keys.add(ByteBuffer.wrap(e.statement().senderPublicKey()));
            }
        }
        Map<ByteBuffer, List<SenderGrant>> grants = c.grantsFor(keys);
        List<PendingEvent> out = new ArrayList<>(events.size());
        for (PendingEvent e : events) {
            if (isLogs(e)) {
                out.add(e); // the log's own statement: LogStatementCheck alone decides (issue 61 item 1)
                continue;
            }
            DecodedStatement st = e.statement();
            Optional<Refusal> no = decide(
                    grants.getOrDefault(ByteBuffer.wrap(st.senderPublicKey()), List.of()),
                    board,
                    st.kind(),
                    e.kafkaTimestamp(),
                    st.senderPublicKey());
            if (no.isPresent()) {
                refused.add(
                        new BoardWriter.Refused(e, no.get().reason(), no.get().message()));
            } else {
                out.add(e);
            }
        }
        return out;
    }

    /** Whether {@code e} uses a name only the log writes: no grant ever covers it ({@link LogStatementCheck}). */
    private static boolean isLogs(PendingEvent e) {
        DecodedStatement st = e.statement();
        return LogStatements.reserved(st.board(), st.kind(), st.deliveryId());
    }

    /**
     * Whether the grants of a key let it write {@code kind} on {@code board} at {@code millis}:
     * empty when one covers it; otherwise SENDER_UNREGISTERED (no grant at all), SENDER_REVOKED (a
     * grant for this kind and board was revoked at or before that time) or SENDER_NOT_PERMITTED.
     */
    static Optional<Refusal> decide(List<SenderGrant> grants, String board, String kind, long millis, byte[] key) {
        String who = "sender key " + HexFormat.of().formatHex(key);
        if (grants.isEmpty()) {
            return Optional.of(new Refusal(
                    BadEventException.Reason.SENDER_UNREGISTERED,
                    who + " is not in the sender registry (register it: POST /admin/senders or "
                            + "`electoral-log senders add`)"));
        }
        SenderGrant revoked = null;
        for (SenderGrant g : grants) {
            if (!g.covers(board, kind)) {
                continue;
            }
            if (g.validAt(millis)) {
                return Optional.empty();
            }
            if (g.revoked() != null
                    && g.validUntil() != null
                    && millis >= g.validUntil().toEpochMilli()) {
                revoked = g;
            }
        }
        if (revoked != null) {
            return Optional.of(new Refusal(
                    BadEventException.Reason.SENDER_REVOKED,
                    who + " (" + revoked.senderName() + ") was revoked for " + kind + " on board " + board + " from "
                            + revoked.validUntil() + " (grant " + revoked.grantId() + ", by " + revoked.revokedBy()
                            + ": " + revoked.revocationReason() + "); the statement's time is "
                            + Instant.ofEpochMilli(millis)));
        }
        return Optional.of(new Refusal(
                BadEventException.Reason.SENDER_NOT_PERMITTED,
                who + " (" + grants.get(0).senderName() + ") may not write " + kind + " on board " + board + " at "
                        + Instant.ofEpochMilli(millis) + "; its grants: " + describe(grants)));
    }

    private static String describe(List<SenderGrant> grants) {
        List<String> out = new ArrayList<>();
        for (SenderGrant g : grants) {
            out.add("#" + g.grantId() + " " + String.join(",", g.kinds()) + " on " + g.board() + " from "
                    + g.validFrom() + (g.validUntil() == null ? "" : " until " + g.validUntil()));
        }
        return String.join("; ", out);
    }
}
