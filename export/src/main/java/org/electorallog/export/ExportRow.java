package org.electorallog.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.electorallog.statement.CanonicalJson;
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

    /**
     * A time no file can hold (in microseconds it overflows a Parquet TIMESTAMP), which a reader
     * gives for a time that is not a whole millisecond: a row with it differs from every row,
     * even one made from a statement that names this time.
     */
    public static final long UNREADABLE_TIME = Long.MIN_VALUE;

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    /**
     * The row of record {@code recordId} whose canonical statement is {@code statement}; thrown when
     * the bytes are no statement. Made in one pass over the bytes ({@link
     * CanonicalStatementReader#walk}, bodies by {@link CanonicalJson}); a statement with anything
     * that pass leaves to the general path (a field twice, a double or an escaped string in a body,
     * a field of an unexpected type) is made from its {@link CanonicalStatementReader#fields} and
     * Jackson, which define the row.
     */
    public static ExportRow of(long recordId, byte[] statement) {
        Columns c = new Columns();
        CanonicalStatementReader.walk(statement, c);
        if (c.general) {
            return of(recordId, statement, CanonicalStatementReader.fields(statement));
        }
        return new ExportRow(
                recordId,
                c.board,
                c.kind,
                c.statementMillis,
                c.deliveryId,
                c.senderName,
                c.senderPublicKey,
                c.userId,
                c.username,
                c.electionId,
                c.areaId,
                c.ballotId,
                c.formatVersion,
                c.body,
                c.commitments,
                c.artifact,
                statement);
    }

    /** The general path: the row from the statement's fields as {@link CanonicalStatementReader#fields} reads them. */
    static ExportRow of(long recordId, byte[] statement, Map<String, Object> f) {
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

    /**
     * The columns of one statement as {@link CanonicalStatementReader#walk} tells its fields, each
     * taken as the general path takes it; {@code general} once a field is one that path must decide.
     */
    private static final class Columns implements CanonicalStatementReader.FieldVisitor {
        private static final int LONG = 0x02, STRING = 0x04, BYTES = 0x05, SYMBOL = 0x06;
        private static final int RECORD = 0x07, ARRAY = 0x08, MAP = 0x09;
        /** The fields seen, a bit each in {@link #field}'s order. */
        private int seen;

        boolean general;
        String board, kind, deliveryId, senderName, userId, username, electionId, areaId, ballotId;
        String body, commitments;
        long statementMillis;
        Integer formatVersion;
        byte[] senderPublicKey, artifact;

        @Override
        public void field(String name, int tag, byte[] in, int start, int end) {
            switch (name) {
                case "board" -> {
                    once(0);
                    board = text(tag, in, start, end);
                }
                case "kind" -> {
                    once(1);
                    kind = text(tag, in, start, end);
                }
                case "delivery_id" -> {
                    once(2);
                    deliveryId = text(tag, in, start, end);
                }
                case "sender_name" -> {
                    once(3);
                    senderName = text(tag, in, start, end);
                }
                case "user_id" -> {
                    once(4);
                    userId = text(tag, in, start, end);
                }
                case "username" -> {
                    once(5);
                    username = text(tag, in, start, end);
                }
                case "election_id" -> {
                    once(6);
                    electionId = text(tag, in, start, end);
                }
                case "area_id" -> {
                    once(7);
                    areaId = text(tag, in, start, end);
                }
                case "ballot_id" -> {
                    once(8);
                    ballotId = text(tag, in, start, end);
                }
                case "statement_timestamp" -> {
                    once(9);
                    statementMillis = tag == LONG ? number(in, start) : 0L;
                }
                case "format_version" -> {
                    once(10);
                    formatVersion = tag == LONG ? Integer.valueOf((int) number(in, start)) : null;
                }
                case "sender_public_key" -> {
                    once(11);
                    senderPublicKey = bytes(tag, in, start, end);
                }
                case "artifact" -> {
                    once(12);
                    artifact = bytes(tag, in, start, end);
                }
                case "body" -> {
                    once(13);
                    body = nested(tag, in, start, end);
                }
                case "commitments" -> {
                    once(14);
                    commitments = nested(tag, in, start, end);
                }
                default -> {} // a field no column shows
            }
        }

        /** Field {@code bit} seen; a second time is the general path's (it keeps the last value). */
        private void once(int bit) {
            general |= (seen & (1 << bit)) != 0;
            seen |= 1 << bit;
        }

        private String text(int tag, byte[] in, int start, int end) {
            if (tag == STRING || tag == SYMBOL) {
                return new String(in, start, end - start, StandardCharsets.UTF_8);
            }
            general = true; // walk refuses a null: any other tag is the general path's to refuse
            return null;
        }

        private byte[] bytes(int tag, byte[] in, int start, int end) {
            if (tag == BYTES || tag == RECORD || tag == ARRAY || tag == MAP) {
                return Arrays.copyOfRange(in, start, end);
            }
            general = true;
            return null;
        }

        private String nested(int tag, byte[] in, int start, int end) {
            if (tag == RECORD || tag == ARRAY || tag == MAP) {
                String json = CanonicalJson.json(in, start, end);
                general |= json == null;
                return json;
            }
            general |= tag == BYTES; // the general path reads those bytes as a value
            return null;
        }

        private static long number(byte[] in, int start) {
            long v = 0;
            for (int i = start; i < start + 8; i++) {
                v = (v << 8) | (in[i] & 0xFF);
            }
            return v;
        }
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
        if (statementMillis != other.statementMillis || statementMillis == UNREADABLE_TIME) {
            out.append(out.length() == 0 ? "" : ", ").append("statement_time");
        }
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
