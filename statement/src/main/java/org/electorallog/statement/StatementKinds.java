package org.electorallog.statement;

import java.util.List;

/**
 * Stable small-integer codes of statement kinds, stored in every record row and counter instead of
 * the kind's name. The list is append-only: a code never changes meaning (StatementKindsTest pins it).
 */
public final class StatementKinds {
    /** Index = code. Append new kinds at the end, in the same order as the Avro enum. */
    public static final List<String> NAMES = List.of(
            "UNKNOWN",
            "CAST_VOTE",
            "CAST_VOTE_ERROR",
            "IDP_USER_EVENT",
            "ELECTION_PUBLISHED",
            "VOTING_PERIOD_OPENED",
            "VOTING_PERIOD_PAUSED",
            "VOTING_PERIOD_CLOSED",
            "KEY_GENERATION",
            "KEY_INSERTION_START",
            "KEY_INSERTION_CEREMONY",
            "TALLY_OPENED",
            "TALLY_CLOSED",
            "COMMUNICATIONS_SENT",
            "VOTER_PUBLIC_KEY",
            "ADMIN_PUBLIC_KEY",
            "LOG_CHECKPOINT",
            "LOG_CONTINUATION",
            "BOARD_SEALED",
            "PERSONAL_DATA_ERASED");

    /** The code of UNKNOWN, the Avro enum's default: never projected (StatementRules). */
    public static final short UNKNOWN = 0;

    /** The code of CAST_VOTE, the kind the ballot locator and the cast-vote export read. */
    public static final short CAST_VOTE = 1;

    /**
     * The code of BOARD_SEALED: the board's last record; the projector refuses every later
     * statement for the board (issue 42, docs/operations.md "Closing an election").
     */
    public static final short BOARD_SEALED = 18;

    /**
     * The code of LOG_CONTINUATION: a board's first record, naming the sealed board it continues;
     * the projector refuses one anywhere else (issue 42).
     */
    public static final short LOG_CONTINUATION = 17;

    /**
     * The code of PERSONAL_DATA_ERASED: an account of an erasure by {@code electoral-log erase}
     * (issue 46, docs/personal-data.md "Erasure"), its JSON in the artifact; never a value.
     */
    public static final short PERSONAL_DATA_ERASED = 19;

    private StatementKinds() {}

    /** The code of a kind name, or -1 when this version does not know it. */
    public static int code(String name) {
        return NAMES.indexOf(name);
    }

    /** The name of a code; throws for an unknown code. */
    public static String name(int code) {
        if (code < 0 || code >= NAMES.size()) {
            throw new IllegalArgumentException("unknown statement kind code " + code);
        }
        return NAMES.get(code);
    }
}
