package org.electorallog.audit;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.AuditRow;
import org.electorallog.store.CounterKey;

/**
 * The audit's checks of one record's stored columns against its canonical bytes (the statement's
 * own checks, its board, the board rules and its signatures, are the verifier's {@code
 * EntryChecks}, which {@link BoardAuditor} calls with the fields read here); and its share of the
 * counters, recounted through {@link CounterKey#of} as the projector counts.
 */
final class RecordChecks {
    private RecordChecks() {}

    /**
     * Checks {@code row}, a record of {@code board}, with its stored openings (V21) when it has any;
     * returns its canonical statement's fields, or null when they cannot be read (reported).
     */
    static Map<String, Object> check(AuditRow row, String board, AuditResult result, Map<CounterKey, Long> counters) {
        long id = row.id();
        byte[] statement = row.statement();
        Map<String, Object> f;
        try {
            f = CanonicalStatementReader.fields(statement);
        } catch (IllegalArgumentException e) {
            result.add(Finding.Kind.UNDECODABLE_STATEMENT, id, e.getMessage());
            countAs(row, row.fields().userId() != null, counters);
            return null;
        }
        Map<String, Object> commitments = CommittedRecordChecks.commitments(f, id, result);
        countAs(row, row.fields().userId() != null || commitments.containsKey("user_id"), counters);
        short kind = row.kind();
        byte[] senderKey = row.senderKey();
        field(result, id, "delivery_id", f.get("delivery_id"), row.deliveryId());
        field(
                result,
                id,
                "kind",
                f.get("kind"),
                kind >= 0 && kind < StatementKinds.NAMES.size() ? StatementKinds.name(kind) : "#" + kind);
        field(result, id, "statement_timestamp", f.get("statement_timestamp"), row.statementMillis());
        if (!(f.get("sender_public_key") instanceof byte[] k) || !Arrays.equals(k, senderKey)) {
            result.add(
                    Finding.Kind.RECORD_FIELD_MISMATCH,
                    id,
                    senderKey == null
                            ? "sender_id does not resolve to a key in senders"
                            : "sender key differs from the canonical statement");
        }
        if (f.get("format_version") == null) {
            field(result, id, "user_id", f.get("user_id"), row.fields().userId());
            field(result, id, "username", f.get("username"), row.fields().username());
            if (row.openings() != null) {
                result.add(Finding.Kind.OPENING_MISMATCH, id, "a statement in format 1 has stored openings");
            }
        } else {
            CommittedRecordChecks.check(row, board, f, commitments, result);
        }
        field(result, id, "election_id", f.get("election_id"), row.fields().electionId());
        field(result, id, "area_id", f.get("area_id"), row.fields().areaId());
        field(result, id, "ballot_id", f.get("ballot_id"), row.fields().ballotId());
        return f;
    }

    /** The record's share of the counters, recounted as the projector counts (a user committed to counts). */
    private static void countAs(AuditRow row, boolean hasUser, Map<CounterKey, Long> counters) {
        for (CounterKey k : CounterKey.of(row.kind(), row.fields().electionId(), hasUser)) {
            counters.merge(k, 1L, Long::sum);
        }
    }

    private static void field(AuditResult result, long id, String name, Object canonical, Object stored) {
        if (!Objects.equals(canonical, stored)) {
            result.add(
                    Finding.Kind.RECORD_FIELD_MISMATCH,
                    id,
                    name + " is stored as '" + stored + "' but the canonical statement says '" + canonical + "'");
        }
    }
}
