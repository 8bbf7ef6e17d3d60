package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;
import org.electorallog.statement.StatementKinds;

/**
 * What the projection can store: the one rule set that the producer library applies before it
 * sends and the projector applies before it writes (BRIEF section 3, invariant 6). A statement that
 * breaks a rule is refused by the producer ({@code StatementRejectedException}) and dead-lettered by
 * the projector ({@link BadEventException.Reason#INVALID} or {@code OVERSIZED}) with the same message,
 * which names the field and the limit. schemas/README.md ("What a statement may hold") documents
 * each rule and the column or index it protects.
 *
 * <p>Every rule is a pure function of the statement (and, for {@link #checkRecordTimestamp}, the
 * Kafka record timestamp), so a replay of the topic refuses exactly the same events.
 */
public final class StatementRules {
    /**
     * Maximum UTF-8 bytes of {@code user_id}, {@code username}, {@code election_id}, {@code area_id},
     * {@code ballot_id} and {@code sender_name}. The first five are B-tree keys (records_user,
     * records_username, records_ballot, records_election, counters' primary key); a B-tree entry
     * holds at most 2,704 bytes on 8 KB pages, and 256 leaves room for every other key column.
     */
    public static final int MAX_TEXT_BYTES = 256;
    /** Maximum characters of {@code delivery_id} (at most 512 UTF-8 bytes; the dedup index keys on its SHA-256 prefix). */
    public static final int MAX_DELIVERY_ID_CHARS = 128;
    /** Earliest statement time: 1970-01-01T00:00:00.001Z (0 and negative values are refused as unset). */
    public static final long MIN_STATEMENT_MILLIS = 1;
    /** Latest statement or record time: 9999-12-31T23:59:59.999Z, inside PostgreSQL's timestamptz range and ISO 8601's four-digit years. */
    public static final long MAX_MILLIS = 253_402_300_799_999L;
    /** Earliest Kafka record timestamp (the record's {@code created} time): the Unix epoch. */
    public static final long MIN_RECORD_MILLIS = 0;
    /** An Ed25519 public key (RFC 8032 section 5.1.5). */
    public static final int PUBLIC_KEY_BYTES = 32;
    /** An Ed25519 signature (RFC 8032 section 5.1.6). */
    public static final int SIGNATURE_BYTES = 64;

    /** The text columns the projection indexes, each capped at {@link #MAX_TEXT_BYTES}. */
    private static final String[] CAPPED_TEXT = {
        "sender_name", "user_id", "username", "election_id", "area_id", "ballot_id"
    };

    private StatementRules() {}

    /** A broken rule: the field (a dotted path for nested values) and what it must be. */
    public record Violation(String field, String rule, BadEventException.Reason reason) {
        public String message() {
            return field + ": " + rule;
        }

        public BadEventException exception() {
            return new BadEventException(reason, message());
        }
    }

    /**
     * The first rule a statement record (generated {@code Statement} or a decoded generic record)
     * breaks, checked in a fixed order: board, delivery ID, kind, sender, statement time, every text
     * field's cap, the statement's format (format 2: commitments, never personal values; {@link
     * CommittedForm}), then every string anywhere in the statement (well-formed Unicode without U+0000),
     * then the canonical size.
     */
    public static Optional<Violation> check(IndexedRecord statement) {
        String board = text(statement, "board");
        if (board == null || board.isEmpty()) {
            return invalid("board", "is required");
        }
        if (!BoardName.isValid(board)) {
            return invalid("board", "'" + printable(board) + "' must match [a-z0-9][a-z0-9._-]{0,63}");
        }
        String deliveryId = text(statement, "delivery_id");
        if (deliveryId == null || deliveryId.isEmpty()) {
            return invalid("delivery_id", "is required");
        }
        if (deliveryId.length() > MAX_DELIVERY_ID_CHARS) {
            return invalid(
                    "delivery_id", "is " + deliveryId.length() + " characters, more than " + MAX_DELIVERY_ID_CHARS);
        }
        Object kind = field(statement, "kind");
        if (kind == null) {
            return invalid("kind", "is required");
        }
        if (StatementKinds.code(kind.toString()) <= StatementKinds.UNKNOWN) {
            return Optional.of(unknownKind(kind.toString()));
        }
        String senderName = text(statement, "sender_name");
        if (senderName == null || senderName.isBlank()) {
            return invalid("sender_name", "is required");
        }
        Object key = field(statement, "sender_public_key");
        int keyLength = key instanceof ByteBuffer b ? b.remaining() : -1;
        if (keyLength != PUBLIC_KEY_BYTES) {
            return invalid(
                    "sender_public_key",
                    "must be a " + PUBLIC_KEY_BYTES + "-byte Ed25519 public key"
                            + (keyLength < 0 ? "" : ", got " + keyLength + " bytes"));
        }
        Object ts = field(statement, "statement_timestamp");
        if (!(ts instanceof Number n) || n.longValue() < MIN_STATEMENT_MILLIS || n.longValue() > MAX_MILLIS) {
            return invalid(
                    "statement_timestamp",
                    "must be milliseconds since the epoch from " + MIN_STATEMENT_MILLIS + " to " + MAX_MILLIS + " ("
                            + Instant.ofEpochMilli(MAX_MILLIS) + ")" + (ts == null ? "" : ", got " + ts));
        }
        for (String name : CAPPED_TEXT) {
            Object v = field(statement, name);
            if (v != null) {
                int bytes = utf8Length(v);
                if (bytes > MAX_TEXT_BYTES) {
                    return invalid(name, "is " + bytes + " UTF-8 bytes, more than " + MAX_TEXT_BYTES);
                }
            }
        }
        Optional<Violation> format = CommittedForm.check(statement);
        if (format.isPresent()) {
            return format;
        }
        return Optional.ofNullable(TextRules.fault(statement));
    }

    /**
     * An opened personal value (format 2, docs/personal-data.md) must obey what the same value in the
     * clear would: the cap of {@link #MAX_TEXT_BYTES} for the indexed {@code user_id} and {@code
     * username}, and well-formed Unicode without U+0000 everywhere. Its field is {@code
     * personal.<path>}.
     */
    public static Optional<Violation> checkOpenedValue(String path, String value) {
        if (Arrays.asList(CAPPED_TEXT).contains(path)) {
            int bytes = utf8Length(value);
            if (bytes > MAX_TEXT_BYTES) {
                return invalid("personal." + path, "is " + bytes + " UTF-8 bytes, more than " + MAX_TEXT_BYTES);
            }
        }
        Violation v = TextRules.fault(value);
        return v == null ? Optional.empty() : Optional.of(new Violation("personal." + path, v.rule(), v.reason()));
    }

    /** The canonical bytes may be logged: C2SP tlog-tiles entry bundles carry a uint16 length. */
    public static Optional<Violation> checkCanonicalSize(int canonicalBytes) {
        if (canonicalBytes > CanonicalStatement.MAX_BYTES) {
            return Optional.of(new Violation(
                    "statement",
                    "canonical bytes are " + canonicalBytes + " bytes, more than " + CanonicalStatement.MAX_BYTES,
                    BadEventException.Reason.OVERSIZED));
        }
        return Optional.empty();
    }

    /** A signature, when present, is one Ed25519 signature. */
    public static Optional<Violation> checkSignature(String field, byte[] signature) {
        if (signature != null && signature.length != SIGNATURE_BYTES) {
            return invalid(
                    field,
                    "must be a " + SIGNATURE_BYTES + "-byte Ed25519 signature, got " + signature.length + " bytes");
        }
        return Optional.empty();
    }

    /** The Kafka record timestamp becomes the record's {@code created} time: it must fit the documented range. */
    public static Optional<Violation> checkRecordTimestamp(long millis) {
        if (millis < MIN_RECORD_MILLIS || millis > MAX_MILLIS) {
            return invalid(
                    "kafka timestamp",
                    "must be milliseconds since the epoch from " + MIN_RECORD_MILLIS + " to " + MAX_MILLIS + ", got "
                            + millis);
        }
        return Optional.empty();
    }

    private static int utf8Length(Object v) {
        if (v instanceof Utf8 u) {
            return u.getByteLength();
        }
        return v.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Issue 41 item 6: {@code UNKNOWN} is the Avro enum's default, what a reader older than the
     * writer makes of a kind it does not know. Projected, it would sign a leaf that a newer
     * projector computes differently on replay (BRIEF invariant 2), so it and every kind this
     * version does not know are refused, never logged.
     */
    private static Violation unknownKind(String kind) {
        String rule = kind.equals(StatementKinds.NAMES.get(StatementKinds.UNKNOWN))
                ? "UNKNOWN is the enum's default, what a reader older than the writer makes of a kind it does not know, "
                        + "and is never logged: send a real kind, or upgrade this projector to the producer's schemas"
                : "'" + printable(kind) + "' is unknown to this version: upgrade the projector to the producer's "
                        + "schemas, then replay the dead letter";
        return new Violation("kind", rule, BadEventException.Reason.UNKNOWN_KIND);
    }

    private static Optional<Violation> invalid(String field, String rule) {
        return Optional.of(new Violation(field, rule, BadEventException.Reason.INVALID));
    }

    private static Object field(IndexedRecord r, String name) {
        Schema.Field f = r.getSchema().getField(name);
        return f == null ? null : r.get(f.pos());
    }

    private static String text(IndexedRecord r, String name) {
        Object v = field(r, name);
        return v == null ? null : v.toString();
    }

    /** A value for a message: control characters escaped, at most 80 characters, "(none)" for null. */
    public static String printable(String s) {
        if (s == null) {
            return "(none)";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 80; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return s.length() > 80 ? b + "..." : b.toString();
    }
}
