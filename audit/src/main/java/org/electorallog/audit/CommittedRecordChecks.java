package org.electorallog.audit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings.Opening;
import org.electorallog.statement.ProjectedOpenings;
import org.electorallog.store.AuditRow;

/**
 * The audit's checks of a record in the committed form (issue 46, docs/personal-data.md): every
 * stored opening (V21 records.openings with the user ID, username and error columns the stored
 * form leaves its values to) opens its commitment in the canonical statement, and the user ID and
 * username columns hold what the openings say (nothing, once erased).
 */
final class CommittedRecordChecks {
    private CommittedRecordChecks() {}

    /** The statement's commitments, path to 32 bytes; empty in format 1 or when unreadable (a finding). */
    static Map<String, Object> commitments(Map<String, Object> fields, long id, AuditResult result) {
        if (!(fields.get("commitments") instanceof byte[] raw)) {
            return Map.of();
        }
        try {
            return CanonicalStatementReader.map(raw);
        } catch (IllegalArgumentException e) {
            result.add(Finding.Kind.UNDECODABLE_STATEMENT, id, "commitments: " + e.getMessage());
            return Map.of();
        }
    }

    static void check(
            AuditRow row,
            String board,
            Map<String, Object> fields,
            Map<String, Object> commitments,
            AuditResult result) {
        long id = row.id();
        String deliveryId = String.valueOf(fields.get("delivery_id"));
        List<Opening> openings = List.of();
        if (row.openings() != null) {
            try {
                openings = ProjectedOpenings.decode(row.openings(), row.personalColumns());
            } catch (IllegalArgumentException e) {
                result.add(Finding.Kind.OPENING_MISMATCH, id, "the stored openings do not decode: " + e.getMessage());
            }
        }
        Map<String, String> opened = new HashMap<>();
        for (Opening o : openings) {
            if (!(commitments.get(o.path()) instanceof byte[] commitment)) {
                result.add(
                        Finding.Kind.OPENING_MISMATCH,
                        id,
                        "a stored opening for " + o.path() + ", which the statement does not commit to");
            } else if (!PersonalCommitment.opens(commitment, board, deliveryId, o.path(), o.salt(), o.value())) {
                result.add(
                        Finding.Kind.OPENING_MISMATCH,
                        id,
                        "the stored opening of " + o.path() + " does not open the statement's commitment");
            } else {
                opened.put(o.path(), o.value());
            }
        }
        column(result, id, "user_id", opened.get("user_id"), row.fields().userId());
        column(result, id, "username", opened.get("username"), row.fields().username());
    }

    private static void column(AuditResult result, long id, String path, String opened, String stored) {
        if (!Objects.equals(opened, stored)) {
            result.add(
                    Finding.Kind.OPENING_MISMATCH,
                    id,
                    path + " is stored as '" + stored + "' but its opening says '" + opened + "'");
        }
    }
}
