package org.electorallog.projector;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.electorallog.schemas.BadEventException;
import org.electorallog.schemas.CommittedParts;
import org.electorallog.schemas.DecodedStatement;
import org.electorallog.schemas.StatementRules;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.PersonalCommitment;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.PersonalOpenings.Opening;

/**
 * Opens the personal values of a statement in the committed form (docs/personal-data.md, "The
 * projection"): unwraps its content key with the data key it names and decrypts its envelope's
 * openings with it, checks that each
 * commitment is opened by exactly one opening that matches it, and gives the statement its values.
 * An event whose openings do not open its commitments is refused ({@code BAD_OPENING}), as is one
 * whose key the key store never had ({@code UNKNOWN_DATA_KEY}); one whose key was erased is
 * projected with its commitments only, so its leaf, the tree and the roots are what they were.
 */
final class PersonalOpening {
    /**
     * A statement with its values opened ({@code openings} as checked, stored beside its record),
     * or, when its key was erased or it has no personal value, as it was with no openings.
     */
    @SuppressWarnings("ArrayRecordComponent") // handed on to the batch, never compared as a value
    record Opened(DecodedStatement statement, List<Opening> openings) {
        Opened {
            openings = List.copyOf(openings);
        }
    }

    /** Content keys remembered at most (one per producer and day; cleared when full). */
    private static final int MAX_CONTENT_KEYS = 10_000;

    private final DataKeys keys;
    private final Map<Wrapped, byte[]> contentKeys = new ConcurrentHashMap<>();

    PersonalOpening(DataKeys keys) {
        this.keys = keys;
    }

    /**
     * {@code st} opened; itself, with no openings, when it is in format 1. A failure to reach the
     * key store is not the event's fault: it propagates as an {@link IllegalStateException} and
     * the batch is read again.
     */
    Opened open(DecodedStatement st) throws BadEventException {
        CommittedParts parts = st.committed();
        if (parts == null) {
            return new Opened(st, List.of());
        }
        PersonalOpenings.Sealed sealed = parts.sealed();
        if (sealed == null) {
            if (parts.commitments().isEmpty()) {
                return new Opened(st, List.of());
            }
            throw bad("commits to " + parts.commitments().keySet()
                    + " but its envelope carries no openings (the envelope's personal field)");
        }
        String expected = DataKeys.id(st.board(), DataKeys.dayOf(st.statementTimestamp()));
        if (!sealed.keyId().equals(expected)) {
            throw bad("openings sealed with key '" + StatementRules.printable(sealed.keyId())
                    + "', but a statement of this board and day takes key '" + expected
                    + "' (erasing that key must erase these values)");
        }
        DataKeys.Lookup found = keys.find(sealed.keyId());
        return switch (found.state()) {
            case UNKNOWN ->
                throw new BadEventException(
                        BadEventException.Reason.UNKNOWN_DATA_KEY,
                        "the data key " + sealed.keyId() + " is not in the key store (never made, not erased): restore "
                                + "the key store from a backup that holds it, then replay this dead letter");
            case ERASED -> new Opened(st, List.of());
            case PRESENT -> opened(st, parts, sealed, contentKey(found.key(), sealed));
        };
    }

    /**
     * The key that encrypts {@code sealed}'s openings: its content key unwrapped with the day's
     * private key (issue 66), or the day's own AES key for openings sealed before issue 66 with no
     * wrapped key. Unwrapped content keys are remembered by key ID and wrapped bytes, since a
     * producer reuses one for a day.
     */
    private byte[] contentKey(DataKeys.DataKey key, PersonalOpenings.Sealed sealed) throws BadEventException {
        byte[] wrapped = sealed.wrappedKey();
        if (wrapped.length == 0) {
            if (key.legacyKey() == null) {
                throw bad("openings with no wrapped content key, but the key " + key.id()
                        + " was made by the log for wrapped ones (issue 66)");
            }
            return key.legacyKey();
        }
        if (key.privateKey() == null) {
            throw new IllegalStateException("the data key " + key.id() + " was made before V24 and is not converted "
                    + "yet: the projector's key maker converts it at start (is a key-encryption key configured?)");
        }
        Wrapped w = new Wrapped(key.id(), ByteBuffer.wrap(wrapped));
        byte[] known = contentKeys.get(w);
        if (known != null) {
            return known;
        }
        byte[] ck;
        try {
            ck = ContentKeys.unwrap(key.id(), key.privateKey(), wrapped);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (contentKeys.size() >= MAX_CONTENT_KEYS) {
            contentKeys.clear();
        }
        contentKeys.put(w, ck);
        return ck;
    }

    /** A wrapped content key as remembered: only under the key ID it was unwrapped for. */
    private record Wrapped(String keyId, ByteBuffer wrapped) {}

    private static Opened opened(DecodedStatement st, CommittedParts parts, PersonalOpenings.Sealed sealed, byte[] key)
            throws BadEventException {
        List<Opening> openings;
        try {
            openings = PersonalOpenings.open(sealed, key, st.entry().leafHash());
        } catch (RuntimeException e) { // a ciphertext that does not authenticate, or openings that do not decode
            throw bad(e.getMessage());
        }
        Map<String, String> values = new HashMap<>();
        for (Opening o : openings) {
            byte[] commitment = parts.commitments().get(o.path());
            if (commitment == null) {
                throw bad("an opening for '" + StatementRules.printable(o.path())
                        + "', which the statement does not commit to");
            }
            if (values.containsKey(o.path())) {
                throw bad("two openings for " + o.path());
            }
            if (!PersonalCommitment.opens(commitment, st.board(), st.deliveryId(), o.path(), o.salt(), o.value())) {
                throw bad("the opening of " + o.path() + " does not match its commitment");
            }
            Optional<StatementRules.Violation> broken = StatementRules.checkOpenedValue(o.path(), o.value());
            if (broken.isPresent()) {
                throw broken.get().exception();
            }
            values.put(o.path(), o.value());
        }
        if (values.size() != parts.commitments().size()) {
            TreeSet<String> missing = new TreeSet<>(parts.commitments().keySet());
            missing.removeAll(values.keySet());
            throw bad("no opening for " + missing);
        }
        return new Opened(st.opened(values), openings);
    }

    private static BadEventException bad(String message) {
        return new BadEventException(BadEventException.Reason.BAD_OPENING, "committed form: " + message);
    }
}
