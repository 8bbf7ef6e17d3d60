package org.electorallog.statement;

/**
 * The statements the log makes about itself (issue 61 item 1, decision 130): the head writer's
 * entries on the heads board ({@link HeadsBoard}), a board's seal ({@code BOARD_SEALED}) and the
 * accounts of erasures ({@code PERSONAL_DATA_ERASED} on the erasures board). Their boards, kinds and
 * delivery-ID prefixes are reserved: the projector takes such a statement only when it fits the
 * shape {@link #misfit} checks and carries a sender signature by the log's own key (the Ed25519 key
 * of its checkpoints, {@link NoteSigner#statementKey}), whatever the signature policy and the sender
 * registry say, so no grant of the registry ever covers them. A client checks such a statement's
 * sender key against the log's verifier key, which it holds already.
 *
 * <p>One key for both is safe: a statement's signed bytes are its canonical bytes, which start with
 * {@code "ELS1"} and the byte 0x07 (schemas/README.md "Canonical statement bytes"), a control
 * character that C2SP signed-note forbids in a note's text, so no statement signature passes for a
 * note's signature nor the other way round.
 */
public final class LogStatements {
    /** The board of the erasures' accounts (schemas/README.md "The erasure statement"). */
    public static final String ERASURES_BOARD = "erasures";
    /** The delivery-ID prefix of a board's seal: {@code seal:<board>}. */
    public static final String SEAL_PREFIX = "seal:";
    /** The delivery-ID prefix of a heads entry: {@code head:<board>:<size>} ({@link HeadsBoard#deliveryId}). */
    public static final String HEAD_PREFIX = "head:";
    /** The delivery-ID prefix of an erasure's account: {@code erase:<board>:<from>:<to>} or {@code erase:<uuid>}. */
    public static final String ERASE_PREFIX = "erase:";

    static final String BOARD_SEALED = "BOARD_SEALED";
    static final String PERSONAL_DATA_ERASED = "PERSONAL_DATA_ERASED";
    static final String LOG_CHECKPOINT = "LOG_CHECKPOINT";

    private LogStatements() {}

    /** The delivery ID of {@code board}'s seal: one per board, so a seal sent twice is one record. */
    public static String sealId(String board) {
        return SEAL_PREFIX + board;
    }

    /** Whether {@code board} is one only the log writes (heads, erasures): a seal never goes there. */
    public static boolean reservedBoard(String board) {
        return HeadsBoard.NAME.equals(board) || ERASURES_BOARD.equals(board);
    }

    /**
     * Whether a statement of {@code board}, {@code kind} (its name) and {@code deliveryId} uses a
     * name only the log writes: a reserved board, a reserved kind or a reserved delivery-ID prefix.
     */
    public static boolean reserved(String board, String kind, String deliveryId) {
        return reservedBoard(board)
                || BOARD_SEALED.equals(kind)
                || PERSONAL_DATA_ERASED.equals(kind)
                || deliveryId.startsWith(SEAL_PREFIX)
                || deliveryId.startsWith(HEAD_PREFIX)
                || deliveryId.startsWith(ERASE_PREFIX);
    }

    /**
     * Why a statement using a reserved name does not fit the shape the log gives it, or null when it
     * fits: the heads board holds LOG_CHECKPOINT entries under {@code head:} IDs only; the erasures
     * board PERSONAL_DATA_ERASED accounts under {@code erase:} IDs only; a seal is its board's
     * BOARD_SEALED statement under exactly {@code seal:<board>}, never on a reserved board.
     */
    public static String misfit(String board, String kind, String deliveryId) {
        if (HeadsBoard.NAME.equals(board)) {
            return LOG_CHECKPOINT.equals(kind) && deliveryId.startsWith(HEAD_PREFIX)
                    ? null
                    : "board " + board
                            + " holds only the head writer's LOG_CHECKPOINT entries under head:<board>:<size> "
                            + "delivery IDs (a " + kind + " under '" + deliveryId + "' is not one)";
        }
        if (ERASURES_BOARD.equals(board)) {
            return PERSONAL_DATA_ERASED.equals(kind) && deliveryId.startsWith(ERASE_PREFIX)
                    ? null
                    : "board " + board + " holds only erase's PERSONAL_DATA_ERASED accounts under erase: delivery IDs "
                            + "(a " + kind + " under '" + deliveryId + "' is not one)";
        }
        if (BOARD_SEALED.equals(kind) || deliveryId.startsWith(SEAL_PREFIX)) {
            return BOARD_SEALED.equals(kind) && deliveryId.equals(sealId(board))
                    ? null
                    : "a board's seal is its BOARD_SEALED statement under the delivery ID " + sealId(board) + " (a "
                            + kind + " under '" + deliveryId + "' is not one)";
        }
        if (PERSONAL_DATA_ERASED.equals(kind) || deliveryId.startsWith(ERASE_PREFIX)) {
            return "an erasure's account is a PERSONAL_DATA_ERASED statement on board " + ERASURES_BOARD
                    + " under an erase: delivery ID (a " + kind + " on board " + board + " under '" + deliveryId
                    + "' is not one)";
        }
        if (deliveryId.startsWith(HEAD_PREFIX)) {
            return "head: delivery IDs are the heads board's (a " + kind + " on board " + board + " under '"
                    + deliveryId + "' is not one)";
        }
        return null;
    }
}
