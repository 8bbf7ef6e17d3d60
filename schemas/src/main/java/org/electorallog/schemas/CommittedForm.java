package org.electorallog.schemas;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings.Opening;

/**
 * Statement format 2, the committed form (docs/personal-data.md): each personal field's value
 * replaced by a salted commitment ({@link PersonalCommitment}), so the canonical bytes, the
 * signatures and the leaf commit to personal data without containing it. The personal fields are
 * {@link #PATHS}; everything else stays in the clear. A personal field is removed (null), except
 * one the schema requires (CastVoteError's {@code error}, the only one), which holds the empty
 * string {@link #REQUIRED_PLACEHOLDER} (decision 141: no new envelope version, which could not be
 * both backward and forward compatible).
 */
public final class CommittedForm {
    /** The format number of the committed form ({@code format_version}); format 1 is written as null. */
    public static final int FORMAT = 2;

    /** The personal fields, by path: statement fields, then body fields ({@code body.<name>}). */
    public static final List<String> PATHS = PersonalCommitment.PATHS;

    /** What a personal field the schema requires holds in the committed form, its value being behind the commitment. */
    public static final String REQUIRED_PLACEHOLDER = "";

    /** A statement in the committed form and the openings of its commitments. */
    public record Committed(Statement statement, List<Opening> openings) {
        public Committed {
            openings = List.copyOf(openings);
        }
    }

    private CommittedForm() {}

    /**
     * {@code statement} (format 1, its personal values in the clear) in the committed form: a copy
     * with each personal value removed and committed to with a fresh salt, {@code format_version}
     * 2, and the openings. The board and delivery ID must be set (they are part of each commitment).
     */
    public static Committed commit(Statement statement) {
        return commit(statement, path -> PersonalCommitment.salt());
    }

    /**
     * As {@link #commit(Statement)} with the salt of each path from {@code salts}: fixed salts make
     * the producer test vectors (docs/producers.md); a producer uses fresh ones, never these.
     */
    public static Committed commit(Statement statement, Function<String, byte[]> salts) {
        if (statement.getFormatVersion() != null || statement.getCommitments() != null) {
            throw new IllegalArgumentException("the statement is already in format " + statement.getFormatVersion());
        }
        Statement copy = SpecificData.get().deepCopy(Statement.getClassSchema(), statement);
        String board = copy.getBoard().toString();
        String deliveryId = copy.getDeliveryId().toString();
        Map<String, ByteBuffer> commitments = new TreeMap<>(); // sorted: the Avro bytes are the same each time
        List<Opening> openings = new ArrayList<>();
        for (String path : PATHS) {
            Slot slot = slot(copy, path);
            if (slot == null || slot.value() == null) {
                continue;
            }
            String value = slot.value().toString();
            byte[] salt = salts.apply(path);
            commitments.put(path, ByteBuffer.wrap(PersonalCommitment.of(board, deliveryId, path, salt, value)));
            openings.add(new Opening(path, salt, value));
            slot.record().put(slot.pos(), slot.required() ? REQUIRED_PLACEHOLDER : null);
        }
        copy.setFormatVersion(FORMAT);
        copy.setCommitments(commitments);
        return new Committed(copy, openings);
    }

    /**
     * The first way {@code statement}'s format is broken, for {@link StatementRules}: a format other
     * than 1 (null) or 2; commitments on a format 1 statement; in format 2 a personal value in the
     * clear, a commitment for a field that is not a personal field of this statement, or one that is
     * not 32 bytes.
     */
    static Optional<StatementRules.Violation> check(IndexedRecord statement) {
        Object format = field(statement, "format_version");
        Object commitments = field(statement, "commitments");
        if (format == null) {
            return commitments == null
                    ? Optional.empty()
                    : invalid("commitments", "only a statement in format 2 (format_version 2) carries commitments");
        }
        if (!(format instanceof Integer f) || f != FORMAT) {
            return invalid(
                    "format_version",
                    "must be absent (format 1) or " + FORMAT + " (the committed form), got " + format);
        }
        if (!(commitments instanceof Map<?, ?> map)) {
            return invalid("commitments", "are required in format 2 (an empty map when there is no personal value)");
        }
        Set<String> committedPaths = new HashSet<>(); // the keys are Utf8 in a decoded event, String in a built one
        map.keySet().forEach(k -> committedPaths.add(k.toString()));
        for (String path : PATHS) {
            Slot slot = slot(statement, path);
            if (slot == null || slot.value() == null) {
                continue;
            }
            if (!slot.required()) {
                return invalid(path, "is personal: a statement in format 2 carries its commitment, never the value");
            }
            if (!REQUIRED_PLACEHOLDER.equals(slot.value().toString()) || !committedPaths.contains(path)) {
                return invalid(
                        path,
                        "is personal and required: a statement in format 2 holds the empty string there and the"
                                + " value's commitment in commitments");
            }
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String path = e.getKey().toString();
            if (!PATHS.contains(path) || slot(statement, path) == null) {
                return invalid(
                        "commitments",
                        "'" + StatementRules.printable(path)
                                + "' is not a personal field of this statement (the personal fields: " + PATHS + ")");
            }
            int length = e.getValue() instanceof ByteBuffer b ? b.remaining() : -1;
            if (length != PersonalCommitment.BYTES) {
                return invalid(
                        "commitments." + path,
                        "must be a " + PersonalCommitment.BYTES + "-byte commitment, got " + length + " bytes");
            }
        }
        return Optional.empty();
    }

    /**
     * Where a path's value lives: the record holding it, the field's position, its value, and whether
     * the schema requires it (no null branch); null when this statement has no such field.
     */
    private record Slot(IndexedRecord record, int pos, Object value, boolean required) {}

    private static Slot slot(IndexedRecord statement, String path) {
        IndexedRecord holder = statement;
        String name = path;
        if (path.startsWith("body.")) {
            Object body = field(statement, "body");
            if (!(body instanceof IndexedRecord b)) {
                return null;
            }
            holder = b;
            name = path.substring("body.".length());
        }
        Schema.Field f = holder.getSchema().getField(name);
        return f == null
                ? null
                : new Slot(holder, f.pos(), holder.get(f.pos()), !f.schema().isNullable());
    }

    private static Object field(IndexedRecord r, String name) {
        Schema.Field f = r.getSchema().getField(name);
        return f == null ? null : r.get(f.pos());
    }

    private static Optional<StatementRules.Violation> invalid(String field, String rule) {
        return Optional.of(new StatementRules.Violation(field, rule, BadEventException.Reason.INVALID));
    }
}
