package org.electorallog.statement;

import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.Hex;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;

/**
 * The heads board (docs/witnesses.md "One witness round for every board"): a board of this log whose
 * entries are the other boards' signed checkpoints, one {@code LOG_CHECKPOINT} statement each with
 * the board's checkpoint origin, size and root in its body. Witnesses cosign only the heads board's
 * checkpoints, so one cosignature a round covers every board: a record is then proved by a chain
 * record -> board checkpoint C -> heads entry E naming C -> heads checkpoint H, cosigned ({@link
 * HeadChain}).
 */
public final class HeadsBoard {
    /** The heads board's name; its checkpoint origin is the log's origin prefix followed by it. */
    public static final String NAME = "heads";

    private HeadsBoard() {}

    /**
     * The delivery ID of the heads entry for {@code board}'s checkpoint at {@code size}: fixed, so a
     * round repeated after a crash adds nothing (the projector drops a repeated delivery ID), and what
     * the query API looks a board's heads entry up by.
     */
    public static String deliveryId(String board, long size) {
        return "head:" + board + ":" + size;
    }

    /**
     * The heads board's checkpoint origin for a board of origin {@code boardOrigin}: the same origin
     * prefix followed by {@link #NAME}. A prefix is everything up to the last '/' (the default prefix
     * {@code electoral-log.local/} ends with one); a log with another kind of prefix names the heads
     * origin itself.
     */
    public static String originBeside(String boardOrigin) {
        return boardOrigin.substring(0, boardOrigin.lastIndexOf('/') + 1) + NAME;
    }

    /** What a heads entry says: a board's checkpoint origin, size and root. */
    @SuppressWarnings("ArrayRecordComponent") // read once and compared by checkNames
    public record Head(String origin, long size, byte[] root, byte[] senderKey) {}

    /**
     * Reads a heads entry (canonical statement bytes, schemas/README.md): a statement of board
     * {@link #NAME} and kind {@code LOG_CHECKPOINT} whose body names an origin, a size and a 32-byte
     * root. Anything else is refused: an entry of another board cannot stand for a heads entry.
     */
    public static Head read(byte[] entry) throws ProofException {
        Map<String, Object> top;
        Map<String, Object> body;
        try {
            top = CanonicalStatementReader.fields(entry);
            body = top.get("body") instanceof byte[] b ? CanonicalStatementReader.record(b) : Map.of();
        } catch (IllegalArgumentException e) {
            throw new ProofException("the heads entry is not a canonical statement: " + e.getMessage());
        }
        if (!NAME.equals(top.get("board"))) {
            throw new ProofException(
                    "the heads entry is a statement of board '" + top.get("board") + "', not of '" + NAME + "'");
        }
        if (!"LOG_CHECKPOINT".equals(top.get("kind"))) {
            throw new ProofException("the heads entry is a " + top.get("kind") + ", not a LOG_CHECKPOINT");
        }
        if (!(body.get("origin") instanceof String origin)
                || !(body.get("size") instanceof Long size)
                || !(body.get("root") instanceof byte[] root)
                || root.length != Hashes.HASH_SIZE) {
            throw new ProofException("the heads entry does not name an origin, a size and a 32-byte root");
        }
        return new Head(origin, size, root, top.get("sender_public_key") instanceof byte[] k ? k : new byte[0]);
    }

    /**
     * Checks that heads entry {@code entry} names one of the log's keys {@code logKeys} as its sender
     * (issue 61 item 1, decision 130): the head writer signs its entries with the log's key, and the
     * projector takes an entry on this board from no other key, so an entry naming another sender
     * is not the head writer's, whatever tree it is in. (Its signature is by the key that signs the
     * heads checkpoint already verified, so the name is what is left to check.)
     */
    public static void checkSigner(byte[] entry, Collection<NoteVerifier> logKeys) throws ProofException {
        Head h = read(entry);
        for (NoteVerifier k : logKeys) {
            if (Arrays.equals(k.publicKey(), h.senderKey())) {
                return;
            }
        }
        throw new ProofException("the heads entry for " + h.origin() + " at " + h.size() + " names sender key "
                + Hex.encode(h.senderKey()) + ", not the log's key: it is not the head writer's");
    }

    /** Checks that heads entry {@code entry} names checkpoint {@code c}: its origin, size and root. */
    public static void checkNames(byte[] entry, Checkpoint c) throws ProofException {
        Head h = read(entry);
        if (!h.origin().equals(c.origin()) || h.size() != c.size() || !Arrays.equals(h.root(), c.root())) {
            throw new ProofException("the heads entry names " + h.origin() + " at " + h.size() + " with root "
                    + Base64.getEncoder().encodeToString(h.root()) + ", not the checkpoint " + c.origin() + " at "
                    + c.size() + " with root " + Base64.getEncoder().encodeToString(c.root()));
        }
    }
}
