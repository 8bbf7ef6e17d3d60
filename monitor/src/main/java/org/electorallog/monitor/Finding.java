package org.electorallog.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Something a monitor saw that must not happen to an append-only log, with its evidence: the
 * checkpoint it had verified before, the one that contradicts it (both signed notes, as served) and
 * the consistency proof between them where there is one (base64 hashes, RFC 9162 section 2.1.4).
 *
 * @param kind     what it is
 * @param board    the board
 * @param source   the query API that served the contradicting checkpoint
 * @param detail   a sentence a person can act on
 * @param previous the checkpoint verified before (signed note), or null
 * @param current  the contradicting checkpoint (signed note), or null
 * @param proof    the consistency proof hashes (base64), empty when none applies
 */
public record Finding(
        Kind kind, String board, String source, String detail, String previous, String current, List<String> proof) {
    public Finding {
        proof = List.copyOf(proof);
    }

    /** What a monitor reports. */
    public enum Kind {
        /** The checkpoint's log signature does not verify with the log keys given (or its origin is not the board's). */
        BAD_SIGNATURE,
        /** A configured witness's cosignature line on a checkpoint does not verify. */
        BAD_COSIGNATURE,
        /** The hash tiles served do not give the root the checkpoint signs (or are missing). */
        TILES_DO_NOT_MATCH,
        /**
         * Two checkpoints of one board that cannot both be true: the same size with different roots,
         * or a larger tree that does not contain the smaller (a split view, or a rewritten log).
         */
        FORK,
        /** A sealed board has a checkpoint beyond its sealed size. */
        SEALED_BOARD_GREW,
        /** A board's seal as the API states it is not in the log the monitor verified, or was withdrawn. */
        SEAL_MISMATCH,
        /**
         * An entry the board grew by (read with an observer's token) does not hash to its leaf, or is
         * not a statement of the board, follows a seal, or is a continuation after record 0; or a heads
         * board entry names a board's size and root that the tree served for that board does not have.
         */
        ENTRIES_DO_NOT_MATCH,
        /**
         * Entries the signed checkpoint covers that the API does not serve: a 404, or an observers-only
         * answer on the heads board or on a board in the committed form (issue 61 item 3).
         */
        ENTRIES_WITHHELD,
        /**
         * A board whose checkpoint the monitor verified before that the API no longer lists, or whose
         * checkpoint it now answers 404 for.
         */
        BOARD_VANISHED
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One line of JSON (the findings file and the printed report). */
    public String toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", kind.name());
        n.put("board", board);
        n.put("source", source);
        n.put("detail", detail);
        n.put("previous", previous);
        n.put("current", current);
        ArrayNode hashes = n.putArray("proof");
        proof.forEach(hashes::add);
        return n.toString();
    }
}
