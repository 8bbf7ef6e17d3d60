package org.electorallog.statement;

/**
 * The rules of a board's order (issue 42, docs/operations.md "Closing an election"), in one place:
 * the projector enforces them on what it appends, and the audit, the monitor and {@code verify-board}
 * check the records against them.
 *
 * <ul>
 *   <li>a board's first {@code BOARD_SEALED} statement is its last record: nothing follows a seal;
 *   <li>a {@code LOG_CONTINUATION} names the sealed board this one continues, so it is only ever a
 *       board's first record (record 0), where a verifier looks for it.
 * </ul>
 *
 * <p>One object walks one board's entries in order from some size on. Each depends only on the
 * entries before it, so a replay decides the same way. Not thread-safe: a board is walked by one
 * thread.
 */
public final class BoardRules {
    /** A rule an entry breaks. */
    public enum Breach {
        /** The entry follows the board's seal: a sealed board never grows. */
        AFTER_SEAL,
        /** The entry is a LOG_CONTINUATION at an index other than 0. */
        CONTINUATION_NOT_FIRST
    }

    private long size;
    private long sealIndex;

    private BoardRules(long size, long sealIndex) {
        this.size = size;
        this.sealIndex = sealIndex;
    }

    /** A board with no entry yet. */
    public static BoardRules empty() {
        return new BoardRules(0, -1);
    }

    /**
     * A walk that goes on at entry {@code size} of a board whose first seal is entry {@code sealIndex}
     * (-1: none met): the projector's board (sealed by its last record or open), or a verifier that
     * reads from the middle of a board.
     */
    public static BoardRules at(long size, long sealIndex) {
        if (size < 0 || sealIndex < -1 || sealIndex >= size) {
            throw new IllegalArgumentException("no board of " + size + " entries is sealed at " + sealIndex);
        }
        return new BoardRules(size, sealIndex);
    }

    /**
     * The rule that an entry of kind {@code kind} (a {@link StatementKinds} code; any other number is
     * a kind these rules do not name) would break as the board's next entry, or null; the walk does
     * not move.
     */
    public Breach check(int kind) {
        if (sealIndex >= 0) {
            return Breach.AFTER_SEAL;
        }
        if (kind == StatementKinds.LOG_CONTINUATION && size != 0) {
            return Breach.CONTINUATION_NOT_FIRST;
        }
        return null;
    }

    /** {@link #check} for a kind by name (what a verifier reads from an entry); an unknown name breaks nothing. */
    public Breach check(String kind) {
        return check(StatementKinds.code(kind));
    }

    /**
     * Takes the next entry, of kind {@code kind}, as the board's, and returns the rule it breaks, or
     * null. A verifier walks on past a breach (it reads what is there); the seal stays the first one.
     */
    public Breach next(int kind) {
        Breach breach = check(kind);
        if (kind == StatementKinds.BOARD_SEALED && sealIndex < 0) {
            sealIndex = size;
        }
        size++;
        return breach;
    }

    /** {@link #next} for a kind by name. */
    public Breach next(String kind) {
        return next(StatementKinds.code(kind));
    }

    /** The entries walked (with the size the walk started from). */
    public long size() {
        return size;
    }

    /** The index of the board's first BOARD_SEALED entry, or -1 while it is open. */
    public long sealIndex() {
        return sealIndex;
    }

    /** Whether the board is sealed. */
    public boolean sealed() {
        return sealIndex >= 0;
    }

    /**
     * What an entry at {@code index} that breaks {@code breach} did, for a person: the audit's
     * finding and the verifier's problem say it in these words.
     */
    public String describe(Breach breach, long index) {
        return switch (breach) {
            case AFTER_SEAL -> "entry " + index + " follows the seal at entry " + sealIndex + ": the sealed board grew";
            case CONTINUATION_NOT_FIRST ->
                "entry " + index + " is a LOG_CONTINUATION, which only a board's first record may be";
        };
    }
}
