package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Entry bundles, tile paths, cosignatures, tlog-proof bundles and strict parsing. */
class FormatsTest {

    @Test
    void entryBundlesRoundTripAndRefuseOversizedOrTruncatedEntries() throws Exception {
        List<byte[]> entries = List.of(new byte[0], "a".getBytes(), new byte[65_535]);
        byte[] bundle = EntryBundle.encode(entries);
        assertEquals(2 + 0 + 2 + 1 + 2 + 65_535, bundle.length);
        List<byte[]> back = EntryBundle.decode(bundle);
        assertEquals(3, back.size());
        assertArrayEquals(entries.get(1), back.get(1));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> EntryBundle.encode(List.of(new byte[65_536])));
        assertTrue(e.getMessage().contains("65,535"));
        assertThrows(
                ProofException.class, () -> EntryBundle.decode(java.util.Arrays.copyOf(bundle, bundle.length - 1)));
        assertThrows(ProofException.class, () -> EntryBundle.decode(new byte[] {0}));
    }

    @Test
    void signatureBundlesRoundTripAndRefuseUnknownFlagsOrTruncatedItems() throws Exception {
        byte[] a = new byte[64];
        byte[] b = new byte[64];
        b[63] = 9;
        List<SignatureBundle.Signatures> items = List.of(
                new SignatureBundle.Signatures(1L, null, null),
                new SignatureBundle.Signatures(2L, a, null),
                new SignatureBundle.Signatures(-3L, a, b));
        byte[] bundle = SignatureBundle.encode(items);
        assertEquals(9 + 73 + 137, bundle.length);
        List<SignatureBundle.Signatures> back = SignatureBundle.decode(bundle);
        assertEquals(3, back.size());
        assertEquals(-3L, back.get(2).createdMillis());
        assertArrayEquals(b, back.get(2).system());
        assertEquals(null, back.get(0).sender());
        assertThrows(
                ProofException.class, () -> SignatureBundle.decode(java.util.Arrays.copyOf(bundle, bundle.length - 1)));
        assertThrows(ProofException.class, () -> SignatureBundle.decode(new byte[] {4, 0, 0, 0, 0, 0, 0, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> new SignatureBundle.Signatures(0, new byte[63], null));
        assertEquals("signatures/x001/x234/067.p/7", TileLayout.signaturesPath(1_234_067, 7));
        assertEquals("signatures/005", TileLayout.signaturesPath(5, 256));
    }

    @Test
    void tilePathsParseStrictly() {
        assertEquals(new TilePath(false, 0, 0, 256), TilePath.parse("tile/0/000"));
        assertEquals(new TilePath(false, 2, 1_234_067, 7), TilePath.parse("tile/2/x001/x234/067.p/7"));
        assertEquals(new TilePath(true, -1, 5, 255), TilePath.parse("tile/entries/005.p/255"));
        assertEquals(
                "tile/2/x001/x234/067.p/7",
                TilePath.parse("tile/2/x001/x234/067.p/7").toString());
        for (String bad : new String[] {
            "tile/0/5",
            "tile/0/0005",
            "tile/8/000",
            "tile/0/000.p/0",
            "tile/0/000.p/256",
            "tile/0/000.p/07",
            "tile/0/x000/005",
            "tile/0/001/002",
            "tiles/0/000",
            "tile/a/000",
            "tile/0/-01",
            "tile/0/x999/x999/x999/x999/x999/x999/x999/999"
        }) {
            assertThrows(IllegalArgumentException.class, () -> TilePath.parse(bad), bad);
        }
    }

    /**
     * Issue 41 item 2: a tile index near 2^56 once overflowed {@code index * 256} and named the
     * tile of records 0-255. Every index beyond the tree has width 0, over the whole index range.
     */
    @Test
    void tileWidthsHaveNoOverflowOverTheWholeIndexRange() {
        long hostile = TilePath.parse("tile/0/x072/x057/x594/x037/x927/936").index();
        assertEquals(72_057_594_037_927_936L, hostile); // 2^56
        for (long size : new long[] {0, 1, 255, 256, 257, 50_000, 1L << 40, Long.MAX_VALUE}) {
            for (int level = 0; level <= TilePath.MAX_LEVEL; level++) {
                for (long index :
                        new long[] {hostile, hostile - 1, 1L << 55, Long.MAX_VALUE, Long.MAX_VALUE / 256 + 1}) {
                    long hashes = size >>> (8 * level);
                    long expected = index < hashes / 256 ? 256 : index == hashes / 256 ? hashes % 256 : 0;
                    assertEquals(expected, TileLayout.width(level, index, size), level + "/" + index + " at " + size);
                }
            }
        }
        assertEquals(0, TileLayout.width(0, hostile, 50_000));
        assertEquals(0, TileLayout.width(0, -1, 50_000));
        assertEquals(80, TileLayout.width(0, 195, 50_000));
        assertEquals(256, TileLayout.width(0, 194, 50_000));
    }

    @Test
    void cosignaturesVerifyAndFailWhenTampered() throws Exception {
        NoteSigner log = NoteSigner.generate("example.com/log");
        Cosigner.Key witness = Cosigner.Key.generate("witness.example/w1");
        Checkpoint cp = new Checkpoint("example.com/log", 20_852_163, Hashes.sha256("root".getBytes()));
        SignedNote note = SignedNote.parse(cp.sign(log)).withSignature(witness.cosign(cp.body(), 1_679_315_147L));
        Cosigner.Verifier v = Cosigner.Verifier.parse(witness.verifierKey());
        assertEquals(1_679_315_147L, v.verify(SignedNote.parse(note.serialize())));
        // the log's own key still opens the note; the cosignature line is an unknown key to it
        SignedNote.open(note.serialize(), List.of(NoteVerifier.parse(log.verifierKey())));
        // a changed timestamp fails
        SignedNote.Signature sig = note.signatures().get(1);
        byte[] blob = sig.signature().clone();
        blob[7] ^= 1;
        SignedNote tampered =
                SignedNote.parse(cp.sign(log)).withSignature(new SignedNote.Signature(sig.name(), sig.keyId(), blob));
        assertThrows(ProofException.class, () -> v.verify(tampered));
        assertThrows(
                ProofException.class,
                () -> Cosigner.Verifier.parse(
                                Cosigner.Key.generate("witness.example/w2").verifierKey())
                        .verify(note));
        // a note-signing vkey (type 0x01) is not a cosigner key
        assertThrows(IllegalArgumentException.class, () -> Cosigner.Verifier.parse(log.verifierKey()));
    }

    @Test
    void tlogProofsRoundTripAndVerify() throws Exception {
        List<byte[]> leaves = new ArrayList<>();
        TileTree tree = TileTree.empty();
        java.util.Map<TileKey, byte[]> tiles = new java.util.HashMap<>();
        for (int i = 0; i < 1000; i++) {
            byte[] leaf = Hashes.leafHash(("entry " + i).getBytes());
            leaves.add(leaf);
            tree.appendLeafHash(leaf);
        }
        tree.drainChangedTiles().forEach(t -> tiles.put(t.key(), t.hashes()));
        NoteSigner log = NoteSigner.generate("example.com/log");
        Cosigner.Key witness = Cosigner.Key.generate("witness.example");
        Checkpoint cp = new Checkpoint("example.com/log", 1000, tree.root());
        String note = SignedNote.parse(cp.sign(log))
                .withSignature(witness.cosign(cp.body(), 1_700_000_000L))
                .serialize();
        TlogProof proof = new TlogProof(
                "context".getBytes(StandardCharsets.UTF_8),
                617,
                ProofBuilder.inclusion(617, 1000, keys -> tiles),
                note);
        String text = proof.format();
        assertTrue(text.startsWith("c2sp.org/tlog-proof@v1\nextra Y29udGV4dA==\nindex 617\n"), text);
        TlogProof parsed = TlogProof.parse(text);
        assertEquals(617, parsed.index());
        List<NoteVerifier> logKeys = List.of(NoteVerifier.parse(log.verifierKey()));
        List<Cosigner.Verifier> witnesses = List.of(Cosigner.Verifier.parse(witness.verifierKey()));
        assertEquals(
                1000,
                parsed.verify(leaves.get(617), "example.com/log", logKeys, witnesses)
                        .size());
        assertThrows(ProofException.class, () -> parsed.verify(leaves.get(618), "example.com/log", logKeys, witnesses));
        assertThrows(
                ProofException.class, () -> parsed.verify(leaves.get(617), "example.com/other", logKeys, witnesses));
        assertThrows(
                ProofException.class,
                () -> parsed.verify(
                        leaves.get(617),
                        "example.com/log",
                        logKeys,
                        List.of(Cosigner.Verifier.parse(
                                Cosigner.Key.generate("witness2.example").verifierKey()))));
        for (String bad : new String[] {
            text.replace("c2sp.org/tlog-proof@v1", "c2sp.org/tlog-proof@v2"),
            text.replace("index 617", "index 0617"),
            text.replace("index 617", "index  617"),
            text.replace("index 617\n", "index 617\nnot-base64!\n"),
            text.replace("\n\n", "\n"),
            text.replace("\n", "\r\n")
        }) {
            assertThrows(
                    ProofException.class,
                    () -> TlogProof.parse(bad).verify(leaves.get(617), "example.com/log", logKeys, witnesses),
                    bad);
        }
    }

    @Test
    void strictNoteAndCheckpointParsing() throws Exception {
        NoteSigner s = NoteSigner.generate("example.com/log");
        List<NoteVerifier> keys = List.of(NoteVerifier.parse(s.verifierKey()));
        String note = new Checkpoint("example.com/log", 12, Hashes.sha256("r".getBytes())).sign(s);
        Checkpoint.open(note, keys);
        // extra spaces, leading zeros, bad base64, a short root, non-UTF-8, too many signatures
        assertThrows(ProofException.class, () -> Checkpoint.open(note.replace("\n12\n", "\n 12\n"), keys));
        assertThrows(ProofException.class, () -> Checkpoint.open(note.replace("\n12\n", "\n012\n"), keys));
        assertThrows(ProofException.class, () -> Checkpoint.parse("example.com/log\n12\n%%%%\n"));
        assertThrows(
                ProofException.class,
                () -> Checkpoint.parse(
                        "example.com/log\n12\n" + Base64.getEncoder().encodeToString(new byte[31]) + "\n"));
        assertThrows(
                ProofException.class,
                () -> Checkpoint.parse("example.com/log\n99999999999999999999\n"
                        + Base64.getEncoder().encodeToString(new byte[32]) + "\n"));
        byte[] nonUtf8 = note.getBytes(StandardCharsets.UTF_8).clone();
        nonUtf8[0] = (byte) 0xC3;
        nonUtf8[1] = (byte) 0x28;
        assertThrows(ProofException.class, () -> SignedNote.parse(nonUtf8));
        StringBuilder many = new StringBuilder(note);
        for (int i = 0; i < SignedNote.MAX_SIGNATURES; i++) {
            many.append(NoteSigner.generate("w" + i)
                    .signatureLine(new Checkpoint("example.com/log", 12, Hashes.sha256("r".getBytes())).body()));
        }
        ProofException e = assertThrows(ProofException.class, () -> Checkpoint.open(many.toString(), keys));
        assertTrue(e.getMessage().contains("at most 100"), e.getMessage());
        assertThrows(
                ProofException.class,
                () -> SignedNote.open(note.replace("\u2014 example.com/log ", "\u2014 example.com/log  "), keys));
    }
}
