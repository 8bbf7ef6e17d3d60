package org.electorallog.audit;

/**
 * One thing the audit found wrong. {@code recordId} names the record when the finding is about one
 * (null otherwise).
 */
public record Finding(Kind kind, Long recordId, String detail) {
    /** The classes of finding (BRIEF invariant 5). */
    public enum Kind {
        /** A stored column differs from the canonical statement bytes the leaf commits to. */
        RECORD_FIELD_MISMATCH,
        /**
         * A stored opening of a statement in the committed form (V19) does not open its commitment,
         * opens a path the statement does not commit to, or belongs to a format 1 statement; or a
         * stored value column differs from its opening.
         */
        OPENING_MISMATCH,
        /** A record's canonical bytes cannot be read. */
        UNDECODABLE_STATEMENT,
        /** A record's leaf hash differs from the stored level-0 tile hash at its position. */
        LEAF_MISMATCH,
        /** A record ID below the board's size has no row. */
        ID_GAP,
        /** A row at or above the board's size. */
        EXTRA_RECORD,
        /** A stored tile differs from the tile recomputed from the records, or is missing or extra. */
        TILE_MISMATCH,
        /** The board state's size or root differs from the recomputed tree. */
        ROOT_MISMATCH,
        /** A stored checkpoint's signature, origin or root is wrong. */
        CHECKPOINT_MISMATCH,
        /** No log verifier key was given, so no checkpoint signature was checked: never a clean audit. */
        SIGNATURES_NOT_CHECKED,
        /**
         * The board's seal (issue 42) is not what its records say: sealed without a BOARD_SEALED last
         * record, a BOARD_SEALED record with records after it, or one on a board stored as open.
         */
        SEAL_MISMATCH,
        /** A LOG_CONTINUATION record that is not its board's record 0 (issue 42: the projector keeps none elsewhere). */
        CONTINUATION_NOT_FIRST,
        /**
         * The board's committed form (issue 61, store V23) is not what its records say: the stored
         * first record in the committed form differs from the records', or a record after it holds a
         * personal value in the clear.
         */
        COMMITTED_FORM_MISMATCH,
        /** A counter differs from the count of the rows. */
        COUNTER_MISMATCH,
        /** Two records of the board share a delivery ID, or the unique index that prevents it is gone. */
        DUPLICATE_DELIVERY_ID,
        /**
         * A statement under a name only the log writes (a seal, a heads entry, an erasure's account:
         * statement LogStatements) that does not fit its shape or names another sender than the log's
         * key (issue 61 item 1: a projector takes it from no other).
         */
        LOG_STATEMENT_MISMATCH,
        /** A statement signature does not verify. */
        BAD_SIGNATURE,
        /** A statement lacks a signature the audit requires. */
        UNSIGNED,
        /**
         * A stored witness cosignature does not verify over its checkpoint with its witness's key, or a
         * checkpoint marked witnessed has fewer valid cosignatures than the quorum.
         */
        COSIGNATURE_MISMATCH,
        /** Cosignatures are stored for a witness the audit has no key for: never a clean audit. */
        COSIGNATURES_NOT_CHECKED
    }
}
