package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.electorallog.core.TlogProof;
import org.junit.jupiter.api.Test;

/**
 * The chain record -> board checkpoint -> heads entry -> cosigned heads checkpoint (docs/witnesses.md):
 * it verifies as built, and each link, changed, breaks it with a reason.
 */
class HeadChainTest {
    private static final String PREFIX = "log.example/";
    private final NoteSigner log = NoteSigner.generate("log.example");
    private final Cosigner.Key witness = Cosigner.Key.generate("w1.example");
    private final Cosigner.Key other = Cosigner.Key.generate("w2.example");

    @Test
    void aRecordIsProvedThroughTheHeadsBoard() throws Exception {
        Chain c = chain("board-1", PREFIX + "board-1", 7, "heads");
        HeadChain.Verified v = verify(c.proof, c.leaf, PREFIX + "board-1");
        assertEquals(10, v.board().size());
        assertEquals(PREFIX + "heads", v.heads().origin());
        assertEquals(List.of("w1.example"), v.cosigners());
        assertTrue(HeadChain.isChained(c.proof));
        // the chain survives its text form
        TlogProof parsed = TlogProof.parse(c.proof.format());
        assertEquals(10, verify(parsed, c.leaf, PREFIX + "board-1").board().size());
        assertEquals(PREFIX + "heads", HeadsBoard.originBeside(PREFIX + "board-1"));
        assertEquals("head:board-1:10", HeadsBoard.deliveryId("board-1", 10));
    }

    @Test
    void eachBrokenLinkIsNamed() throws Exception {
        Chain good = chain("board-1", PREFIX + "board-1", 7, "heads");
        // another record's leaf
        assertThrows(ProofException.class, () -> verify(good.proof, leaf(99), PREFIX + "board-1"));
        // a heads entry naming another board's checkpoint
        Chain elsewhere = chain("board-1", PREFIX + "board-2", 7, "heads");
        ProofException e =
                assertThrows(ProofException.class, () -> verify(elsewhere.proof, elsewhere.leaf, PREFIX + "board-1"));
        assertTrue(e.getMessage().contains("the heads entry names " + PREFIX + "board-2"), e.getMessage());
        // a LOG_CHECKPOINT of another board standing in for a heads entry
        Chain notHeads = chain("board-1", PREFIX + "board-1", 7, "board-9");
        e = assertThrows(ProofException.class, () -> verify(notHeads.proof, notHeads.leaf, PREFIX + "board-1"));
        assertTrue(e.getMessage().contains("of board 'board-9'"), e.getMessage());
        // an entry sent by another key than the log's: not the head writer's (issue 61 item 1)
        Chain foreign = chain(
                "board-1", PREFIX + "board-1", 7, "heads", SigningKey.generate().publicKey());
        e = assertThrows(ProofException.class, () -> verify(foreign.proof, foreign.leaf, PREFIX + "board-1"));
        assertTrue(e.getMessage().contains("not the log's key: it is not the head writer's"), e.getMessage());
        // the heads checkpoint without the quorum's cosignature
        TlogProof head = TlogProof.parse(new String(good.proof.extra(), StandardCharsets.UTF_8));
        String uncosigned = SignedNote.parse(head.checkpointNote()).text();
        TlogProof bare = HeadChain.link(
                new TlogProof(null, good.proof.index(), good.proof.inclusion(), good.proof.checkpointNote()),
                head.extra(),
                new TlogProof(null, head.index(), head.inclusion(), SignedNote.sign(uncosigned, log)));
        e = assertThrows(ProofException.class, () -> verify(bare, good.leaf, PREFIX + "board-1"));
        assertTrue(
                e.getMessage().startsWith("the heads link: the checkpoint has 0 valid cosignature(s)"), e.getMessage());
        // a proof without a heads link is not a chain
        TlogProof plain = new TlogProof(null, good.proof.index(), good.proof.inclusion(), good.proof.checkpointNote());
        e = assertThrows(ProofException.class, () -> verify(plain, good.leaf, PREFIX + "board-1"));
        assertTrue(e.getMessage().contains("no heads link"), e.getMessage());
    }

    private HeadChain.Verified verify(TlogProof proof, byte[] leaf, String origin) throws ProofException {
        return HeadChain.verify(
                proof,
                leaf,
                origin,
                PREFIX + "heads",
                List.of(NoteVerifier.parse(log.verifierKey())),
                List.of(Cosigner.Verifier.parse(witness.verifierKey()), Cosigner.Verifier.parse(other.verifierKey())),
                1);
    }

    @SuppressWarnings("ArrayRecordComponent") // a test value, never compared
    record Chain(TlogProof proof, byte[] leaf) {}

    /**
     * Board "board-1" of 10 leaves with its checkpoint C; a heads board of 5 entries whose entry 3
     * names {@code namedOrigin} at C's size and root (a statement of board {@code headsBoard}); H
     * cosigned by the first witness.
     */
    private Chain chain(String board, String namedOrigin, int record, String headsBoard) {
        return chain(board, namedOrigin, record, headsBoard, log.publicKey());
    }

    private Chain chain(String board, String namedOrigin, int record, String headsBoard, byte[] sender) {
        return chain(log, witness, board, namedOrigin, record, headsBoard, sender);
    }

    /** As above with the given log key and witness (the vectors' fixed keys, HeadChainVectorsTest). */
    static Chain chain(
            NoteSigner log,
            Cosigner.Key witness,
            String board,
            String namedOrigin,
            int record,
            String headsBoard,
            byte[] sender) {
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            leaves.add(leaf(i));
        }
        Checkpoint c = new Checkpoint(PREFIX + board, 10, root(leaves));
        TlogProof inBoard = new TlogProof(null, record, path(record, leaves), c.sign(log));
        byte[] entry = headsEntry(headsBoard, namedOrigin, c.size(), c.root(), sender);
        List<byte[]> heads = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            heads.add(i == 3 ? Hashes.leafHash(entry) : leaf(100 + i));
        }
        Checkpoint h = new Checkpoint(PREFIX + "heads", 5, root(heads));
        String cosigned;
        try {
            cosigned = SignedNote.parse(h.sign(log))
                    .withSignature(witness.cosign(h.body(), 1_800_000_000L))
                    .serialize();
        } catch (ProofException e) {
            throw new AssertionError(e);
        }
        TlogProof inHeads = new TlogProof(null, 3, path(3, heads), cosigned);
        return new Chain(HeadChain.link(inBoard, entry, inHeads), leaves.get(record));
    }

    /** The canonical bytes (schemas/README.md) of a LOG_CHECKPOINT statement naming a checkpoint. */
    static byte[] headsEntry(String board, String origin, long size, byte[] root, byte[] sender) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("ELS1".getBytes(StandardCharsets.US_ASCII));
        record(out, "Statement", 4);
        str(out, "body");
        record(out, "LogCheckpoint", 3);
        str(out, "origin");
        out.write(0x04);
        str(out, origin);
        str(out, "root");
        out.write(0x05);
        out.write(root.length);
        out.writeBytes(root);
        str(out, "size");
        out.write(0x02);
        out.writeBytes(ByteBuffer.allocate(8).putLong(size).array());
        str(out, "board");
        out.write(0x04);
        str(out, board);
        str(out, "kind");
        out.write(0x06);
        str(out, "LOG_CHECKPOINT");
        str(out, "sender_public_key");
        out.write(0x05);
        out.write(sender.length);
        out.writeBytes(sender);
        return out.toByteArray();
    }

    private static void record(ByteArrayOutputStream out, String name, int fields) {
        out.write(0x07);
        str(out, name);
        out.write(fields);
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b.length);
        out.writeBytes(b);
    }

    /** A distinct leaf hash for index i. */
    static byte[] leaf(int i) {
        return Hashes.leafHash(("leaf " + i).getBytes(StandardCharsets.UTF_8));
    }

    /** The tree of these leaf hashes as core grows it (TileTree; core's tests check it against RFC 6962). */
    private static TileTree tree(List<byte[]> leaves) {
        TileTree tree = TileTree.empty();
        leaves.forEach(tree::appendLeafHash);
        return tree;
    }

    static byte[] root(List<byte[]> leaves) {
        return tree(leaves).root();
    }

    /** The inclusion proof of leaf m, built from the tree's tiles (core ProofBuilder). */
    static List<byte[]> path(int m, List<byte[]> leaves) {
        Map<TileKey, byte[]> tiles = new HashMap<>();
        for (Tile t : tree(leaves).drainChangedTiles()) {
            tiles.put(t.key(), t.hashes());
        }
        return ProofBuilder.inclusion(m, leaves.size(), keys -> tiles);
    }
}
