package org.electorallog.verifier;

/**
 * One thing a verification found: what kind of thing, the entry (leaf index) or checkpoint size it
 * is about, and a sentence a person can act on. {@code verify-board} and the monitor show the
 * sentence; the audit (audit {@code BoardAuditor}) sorts the kinds into its finding classes.
 *
 * @param index the leaf index of the entry, the first leaf a tile covers, or the size of a
 *              checkpoint; {@link #NONE} when it is about no one place
 */
public record Problem(Kind kind, long index, String message) {
    /** {@link #index} of a problem about no one place. */
    public static final long NONE = -1;

    /** What a problem is about. */
    public enum Kind {
        /** Bytes that are no canonical statement, or a statement part that cannot be read. */
        NOT_A_STATEMENT,
        /** A statement of another board. */
        OTHER_BOARD,
        /** A record after the board's first {@code BOARD_SEALED} one (statement BoardRules). */
        AFTER_SEAL,
        /** A {@code LOG_CONTINUATION} that is not record 0 (statement BoardRules). */
        CONTINUATION_NOT_FIRST,
        /** A statement under a name only the log writes that is not the log's (statement LogStatements). */
        LOG_STATEMENT,
        /** A sender or system signature that does not verify. */
        BAD_SIGNATURE,
        /** A signature the caller requires that is missing. */
        UNSIGNED,
        /** A statement the sender registry export given does not allow. */
        NOT_GRANTED,
        /** An entry whose leaf hash is not the one at its place in the level-0 tile. */
        LEAF,
        /** A tile that is missing or differs from the one rebuilt from the leaves. */
        TILE,
        /** A root that is not the one rebuilt from the leaves. */
        ROOT,
        /** A checkpoint whose root is not the rebuilt tree's at its size. */
        CHECKPOINT
    }

    @Override
    public String toString() {
        return message;
    }
}
