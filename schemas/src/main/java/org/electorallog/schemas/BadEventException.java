package org.electorallog.schemas;

/**
 * An event that cannot be projected, with a machine-readable reason that goes into the dead-letter
 * topic's headers and metrics.
 */
public final class BadEventException extends Exception {
    /**
     * Why an event was refused (BRIEF section 3, invariant 6). {@code REFUSED}: it passed every rule
     * but the projection could not store it (PostgreSQL's error, found by the projector's isolation
     * path, or a delivery-key collision); the message says which.
     */
    public enum Reason {
        UNDECODABLE,
        NO_SCHEMA,
        UNKNOWN_SCHEMA,
        /**
         * The event's writer schema (its {@link WireFormat#WRITER_SCHEMA_HEADER}) is not the schema its
         * ID names here, nor one this build knows: producers and projector use different registries;
         * or the header is missing where the projector requires it (decision 140).
         */
        SCHEMA_MISMATCH,
        INVALID,
        /**
         * The kind is UNKNOWN (the enum's default, what an older reader makes of a newer kind) or
         * one this version does not know: upgrade the projector, then replay the dead letter.
         */
        UNKNOWN_KIND,
        OVERSIZED,
        UNSIGNED,
        BAD_SIGNATURE,
        REFUSED,
        /** The sender key is not in the sender registry at all (store V9). */
        SENDER_UNREGISTERED,
        /** The sender key is registered, but not for this kind on this board at this time. */
        SENDER_NOT_PERMITTED,
        /** The grant that would cover the statement was revoked before the statement's time. */
        SENDER_REVOKED,
        /** The board was sealed (a BOARD_SEALED record) before this statement: a sealed board never grows. */
        BOARD_SEALED,
        /** A LOG_CONTINUATION that would not be its board's first record: only a board's start names its predecessor. */
        CONTINUATION_NOT_FIRST,
        /**
         * A statement in the committed form whose openings do not open its commitments (one missing,
         * one too many, one that does not match, a ciphertext that does not authenticate, a key of
         * another board or day): the producer library never makes one, so it is a bug or tampering.
         */
        BAD_OPENING,
        /**
         * The openings name a data key the key store never had (not an erased one): the key store was
         * restored from a backup older than the key, or the event was sealed elsewhere. Restore the
         * key store, then replay the dead letter.
         */
        UNKNOWN_DATA_KEY,
        /**
         * A delivery ID the board already holds (or an earlier statement of the same batch took) with
         * other content (issue 61): a retry repeats the statement it retries byte for byte, so a
         * different statement under a taken ID is a producer's bug or someone squatting the ID
         * (a vote sent as {@code seal:<board>}); the first statement stands.
         */
        DELIVERY_ID_REUSED,
        /**
         * A statement holding a personal value in the clear (format 1) on a board in the committed
         * form (since its first record in format 2, store V23; issue 61): the value would stay in the
         * leaf for ever. Send it in the committed form.
         */
        COMMITTED_FORM_REQUIRED,
        /**
         * A statement under a name only the log writes (issue 61 item 1, decision 130; core {@code
         * LogStatements}): on the heads or erasures board, of kind BOARD_SEALED or
         * PERSONAL_DATA_ERASED, or under a {@code seal:}, {@code head:} or {@code erase:} delivery
         * ID, that does not fit its shape or is not signed by the log's own key.
         */
        RESERVED_NAME
    }

    private final Reason reason;

    public BadEventException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public BadEventException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
