package org.electorallog.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.electorallog.statement.CanonicalStatementReader;

/**
 * One record of an export: its leaf index and its statement's fields as typed columns, all taken
 * from its canonical statement bytes (statement {@link CanonicalStatementReader}), which the row
 * carries too. The writer makes a row from the bytes; {@code verify-export} makes it again from the
 * bytes it read and compares ({@link #differences}), so a typed column can only say what the leaf
 * commits to. A body (the kind's own record) and the commitments of the committed form are JSON
 * text with sorted keys and bytes in base64, the same for the same bytes.
 *
 * @param statementMillis the statement's own time, milliseconds since the epoch (UTC)
 * @param userId          in the committed form null: the value is behind its commitment
 */
@SuppressWarnings("ArrayRecordComponent") // compared by differences(), field by field
public record ExportRow(
        long recordId,
        String board,
        String kind,
        long statementMillis,
        String deliveryId,
        String senderName,
        byte[] senderPublicKey,
        String userId,
        String username,
        String electionId,
        String areaId,
        String ballotId,
        Integer formatVersion,
        String body,
        String commitments,
        byte[] artifact,
        byte[] statement) {

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    /** The row of record {@code recordId} whose canonical statement is {@code statement}; thrown when the bytes are no statement. */
    public static ExportRow of(long recordId, byte[] statement) {
        return of(recordId, statement, CanonicalStatementReader.fields(statement));
    }

    /** As {@link #of(long, byte[])}, with the fields the caller read already ({@link CanonicalStatementReader#fields}). */
    public static ExportRow of(long recordId, byte[] statement, Map<String, Object> f) {
        return new ExportRow(
                recordId,
                (String) f.get("board"),
                (String) f.get("kind"),
                f.get("statement_timestamp") instanceof Long t ? t : 0L,
                (String) f.get("delivery_id"),
                (String) f.get("sender_name"),
                (byte[]) f.get("sender_public_key"),
                (String) f.get("user_id"),
                (String) f.get("username"),
                (String) f.get("election_id"),
                (String) f.get("area_id"),
                (String) f.get("ballot_id"),
                f.get("format_version") instanceof Long v ? Integer.valueOf(v.intValue()) : null,
                f.get("body") instanceof byte[] b ? json(CanonicalStatementReader.value(b)) : null,
                f.get("commitments") instanceof byte[] c ? json(CanonicalStatementReader.value(c)) : null,
                (byte[]) f.get("artifact"),
                statement);
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a statement part cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** The columns of this row that differ from {@code other}'s, by name (empty: none). */
    public String differences(ExportRow other) {
        StringBuilder out = new StringBuilder();
        differ(out, "record_id", recordId, other.recordId);
        differ(out, "board", board, other.board);
        differ(out, "kind", kind, other.kind);
        differ(out, "statement_time", statementMillis, other.statementMillis);
        differ(out, "delivery_id", deliveryId, other.deliveryId);
        differ(out, "sender_name", senderName, other.senderName);
        differ(out, "sender_public_key", senderPublicKey, other.senderPublicKey);
        differ(out, "user_id", userId, other.userId);
        differ(out, "username", username, other.username);
        differ(out, "election_id", electionId, other.electionId);
        differ(out, "area_id", areaId, other.areaId);
        differ(out, "ballot_id", ballotId, other.ballotId);
        differ(out, "format_version", formatVersion, other.formatVersion);
        differ(out, "body", body, other.body);
        differ(out, "commitments", commitments, other.commitments);
        differ(out, "artifact", artifact, other.artifact);
        differ(out, "statement", statement, other.statement);
        return out.toString();
    }

    private static void differ(StringBuilder out, String name, Object a, Object b) {
        boolean same = a instanceof byte[] x && b instanceof byte[] y ? Arrays.equals(x, y) : Objects.equals(a, b);
        if (!same) {
            out.append(out.length() == 0 ? "" : ", ").append(name);
        }
    }
}
