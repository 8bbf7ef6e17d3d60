package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.electorallog.statement.Entry;

/**
 * A decoded envelope: the writer schema ID, the statement's fields as the projector stores them,
 * its log entry (statement {@link Entry}: canonical bytes, leaf hash and kind, computed here once)
 * and the signatures. {@code eventType} and {@code error} come
 * from the body, for the analysts' views (store V11): an identity-provider event's {@code event_type}
 * and {@code error}, a cast-vote error's {@code error}; null for other kinds. {@code committed} is
 * null for a format 1 statement; in format 2 (the committed form) the personal fields ({@code
 * userId}, {@code username}, {@code error}) are null as decoded, and {@link #opened} fills them
 * from the openings once the projector has checked them. {@code writerSchema} is the schema it was
 * read with, the one its producer wrote ({@code schemaId} names it in the registry it was read from,
 * or in the embedded manifest when its fingerprint picked it: decision 140).
 */
@SuppressWarnings("ArrayRecordComponent") // a decoded event handed to the writer, never compared as a value
public record DecodedStatement(
        int schemaId,
        String board,
        String deliveryId,
        long statementTimestamp,
        String senderName,
        byte[] senderPublicKey,
        String userId,
        String username,
        String electionId,
        String areaId,
        String ballotId,
        Entry entry,
        byte[] senderSignature,
        byte[] systemSignature,
        String eventType,
        String error,
        CommittedParts committed,
        Schema writerSchema) {

    /**
     * The statement of a decoded envelope, refused with its reason when it breaks a rule of
     * {@link StatementRules} (what the projection can store) or has no canonical form.
     */
    static DecodedStatement of(int schemaId, GenericRecord envelope) throws BadEventException {
        Object st = field(envelope, "statement");
        if (!(st instanceof GenericRecord statement)) {
            throw new BadEventException(BadEventException.Reason.INVALID, "envelope has no statement record");
        }
        Optional<StatementRules.Violation> broken = StatementRules.check(statement);
        if (broken.isEmpty()) {
            broken = StatementRules.checkSignature("sender_signature", bytes(envelope, "sender_signature"));
        }
        if (broken.isEmpty()) {
            broken = StatementRules.checkSignature("system_signature", bytes(envelope, "system_signature"));
        }
        if (broken.isPresent()) {
            throw broken.get().exception();
        }
        byte[] canonical;
        try {
            canonical = CanonicalStatement.encode(statement);
        } catch (RuntimeException e) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID, "statement has no canonical form: " + e.getMessage());
        }
        broken = StatementRules.checkCanonicalSize(canonical.length);
        if (broken.isPresent()) {
            throw broken.get().exception();
        }
        Entry entry;
        try {
            // the rules above refuse what Entry refuses; a refusal here still names the event, never stops the
            // partition
            entry = Entry.of(canonical, string(statement, "kind"));
        } catch (IllegalArgumentException e) {
            throw new BadEventException(
                    BadEventException.Reason.INVALID, "statement has no log entry: " + e.getMessage());
        }
        Object ts = field(statement, "statement_timestamp");
        CommittedParts committed = CommittedParts.of(statement, envelope);
        return new DecodedStatement(
                schemaId,
                string(statement, "board"),
                string(statement, "delivery_id"),
                ts instanceof Number n ? n.longValue() : Long.MIN_VALUE,
                string(statement, "sender_name"),
                bytes(statement, "sender_public_key"),
                string(statement, "user_id"),
                string(statement, "username"),
                string(statement, "election_id"),
                string(statement, "area_id"),
                string(statement, "ballot_id"),
                entry,
                bytes(envelope, "sender_signature"),
                bytes(envelope, "system_signature"),
                bodyText(statement, "event_type"),
                // in format 2 a committed error is behind its commitment; the body holds a placeholder (decision 141)
                committed != null && committed.commits("body.error") ? null : bodyText(statement, "error"),
                committed,
                envelope.getSchema());
    }

    /**
     * This statement with the personal values the projector opened ({@code values} by path, {@link
     * CommittedForm#PATHS}): what the records' user ID, username and error columns then hold.
     */
    public DecodedStatement opened(Map<String, String> values) {
        return new DecodedStatement(
                schemaId,
                board,
                deliveryId,
                statementTimestamp,
                senderName,
                senderPublicKey,
                values.get("user_id"),
                values.get("username"),
                electionId,
                areaId,
                ballotId,
                entry,
                senderSignature,
                systemSignature,
                eventType,
                values.get("body.error"),
                committed,
                writerSchema);
    }

    /** The statement's kind, by name. */
    public String kind() {
        return entry.kindName();
    }

    /**
     * Whether the statement names a user: a user ID in the clear (format 1) or committed to (format
     * 2), readable or not. What the counters count by, so that they do not change when a value is erased.
     */
    public boolean hasUser() {
        return userId != null || (committed != null && committed.commits("user_id"));
    }

    /** A text field of the statement's body record, if the body has it. */
    private static String bodyText(GenericRecord statement, String name) {
        return field(statement, "body") instanceof GenericRecord body ? string(body, name) : null;
    }

    private static Object field(GenericRecord r, String name) {
        Schema.Field f = r.getSchema().getField(name);
        return f == null ? null : r.get(f.pos());
    }

    private static String string(GenericRecord r, String name) {
        Object v = field(r, name);
        return v == null ? null : v.toString();
    }

    private static byte[] bytes(GenericRecord r, String name) {
        Object v = field(r, name);
        if (v instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] out = new byte[d.remaining()];
            d.get(out);
            return out;
        }
        return null;
    }
}
