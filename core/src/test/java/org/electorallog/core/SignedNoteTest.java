package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignedNoteTest {
    /** The example of C2SP signed-note, "Verifier keys" / "Example". */
    static final String SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";

    static final String SPEC_NOTE = "This is an example message.\n\n\u2014 example.com/foo "
            + "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

    @Test
    void theSpecExampleVerifies() throws Exception {
        NoteVerifier v = NoteVerifier.parse(SPEC_VKEY);
        assertEquals("example.com/foo", v.name());
        SignedNote note = SignedNote.open(SPEC_NOTE, List.of(v));
        assertEquals("This is an example message.\n", note.text());
    }

    @Test
    void aOneBitChangeFails() {
        NoteVerifier v = NoteVerifier.parse(SPEC_VKEY);
        String changed = SPEC_NOTE.replace("example message", "example messagf");
        assertThrows(ProofException.class, () -> SignedNote.open(changed, List.of(v)));
    }

    @Test
    void signAndOpenACheckpointWithManySignersIgnoringUnknownKeys() throws Exception {
        List<NoteSigner> signers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            signers.add(NoteSigner.generate("witness" + i + ".example"));
        }
        Checkpoint cp = new Checkpoint("electoral-log.example/board-1", 1234, NaiveTree.leaf(1));
        String note = cp.sign(signers.toArray(new NoteSigner[0]));
        NoteVerifier known = NoteVerifier.parse(signers.get(9).verifierKey());
        Checkpoint opened = Checkpoint.open(note, List.of(known));
        assertEquals(1234, opened.size());
        assertArrayEquals(cp.root(), opened.root());
        NoteVerifier stranger =
                NoteVerifier.parse(NoteSigner.generate("stranger").verifierKey());
        assertThrows(ProofException.class, () -> Checkpoint.open(note, List.of(stranger)));
    }

    @Test
    void signerKeysRoundTrip() {
        NoteSigner s = NoteSigner.generate("log.example/a");
        NoteSigner back = NoteSigner.parse(s.signerKey());
        assertEquals(s.verifierKey(), back.verifierKey());
    }

    @Test
    void malformedNotesAreRejectedWithAReason() {
        NoteVerifier v = NoteVerifier.parse(SPEC_VKEY);
        assertThrows(ProofException.class, () -> SignedNote.open(SPEC_NOTE.replace("\n", "\r\n"), List.of(v)));
        assertThrows(ProofException.class, () -> SignedNote.open(SPEC_NOTE.replace("\n\n", "\n"), List.of(v)));
        assertThrows(ProofException.class, () -> SignedNote.open(SPEC_NOTE.replace("\u2014", "-"), List.of(v)));
        assertThrows(ProofException.class, () -> SignedNote.open(SPEC_NOTE.replace("Uw2Q", "Uw2Q*"), List.of(v)));
        assertThrows(ProofException.class, () -> Checkpoint.parse("origin\n012\nAAAA\n"));
        assertThrows(ProofException.class, () -> Checkpoint.parse("origin\n12\n"));
        assertThrows(
                IllegalArgumentException.class,
                () -> NoteVerifier.parse("example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"));
    }

    @Test
    void tilePathsFollowTheSpec() {
        assertEquals("tile/0/000", TileLayout.tilePath(0, 0, 256));
        assertEquals("tile/1/x001/x234/067.p/8", TileLayout.tilePath(1, 1234067, 8));
        assertEquals("tile/entries/x001/000.p/255", TileLayout.entriesPath(1000, 255));
        assertEquals(1234067, TileLayout.decodeIndex("x001/x234/067"));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.decodeIndex("x000/067"));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.decodeIndex("67"));
        assertThrows(IllegalArgumentException.class, () -> TileLayout.decodeWidth("256"));
    }
}
