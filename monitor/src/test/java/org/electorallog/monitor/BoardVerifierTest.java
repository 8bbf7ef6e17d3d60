package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.junit.jupiter.api.Test;

/**
 * {@code verify-board} on a real projection served by a real query API (issue 42 item 3): an intact
 * board verifies from the API and from a copy of its files in the tlog-tiles layout (entries read
 * with an observer's token, every leaf hashed, every tile rebuilt); in the copy, a changed tile, a
 * changed entry, a removed witness cosignature and an older checkpoint of another view are each
 * refused with the reason.
 */
class BoardVerifierTest {
    /** 700 records: two full level-0 tiles and a partial one. */
    static final int RECORDS = 700;

    @Test
    void anIntactBoardVerifiesAndEachTamperingIsRefusedWithItsReason() throws Exception {
        String board = "verified-" + Long.toString(System.nanoTime(), 36);
        Cosigner.Key witness = Cosigner.Key.generate("witness.verify-board.test");
        try (View v = View.start("verify");
                View other = View.start("other")) {
            v.publish(MonitorTest.statements(board, "vote-", 0, 300));
            v.awaitCheckpoint(board, 300);
            String older =
                    new String(TlogFiles.api(v.api().baseUrl(), board, null).get("checkpoint"), StandardCharsets.UTF_8);
            v.publish(MonitorTest.statements(board, "vote-", 300, RECORDS));
            v.awaitCheckpoint(board, RECORDS);
            other.publish(MonitorTest.statements(board, "elsewhere-", 0, 300));
            other.awaitCheckpoint(board, 300);
            String otherView = new String(
                    TlogFiles.api(other.api().baseUrl(), board, null).get("checkpoint"), StandardCharsets.UTF_8);

            TlogFiles api = TlogFiles.api(v.api().baseUrl(), board, View.OBSERVER);
            BoardVerifier.Result fromApi = verify(api, List.of(), 0, List.of(older));
            assertTrue(fromApi.verified(), fromApi.problems().toString());
            assertEquals(RECORDS, fromApi.size());
            assertEquals(RECORDS, fromApi.entries(), "every entry read and hashed");

            Path dir = copy(
                    api, board, Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "tiles-"));
            // the copy's checkpoint carries a cosignature of the test's witness
            Path checkpoint = dir.resolve("checkpoint");
            SignedNote note = SignedNote.parse(Files.readString(checkpoint));
            String cosigned = note.withSignature(witness.cosign(note.text(), System.currentTimeMillis() / 1000))
                    .serialize();
            Files.writeString(checkpoint, cosigned);
            assertTrue(verify(TlogFiles.directory(dir), List.of(witness), 1, List.of(older))
                    .verified());

            assertRefused(
                    dir,
                    "tile/1/000.p/2",
                    witness,
                    "tile tile/1/000.p/2 differs from the tile rebuilt from the leaves");
            assertRefused(dir, "tile/entries/001", witness, "entry 256 does not hash to its leaf");
            Files.writeString(checkpoint, note.serialize()); // without the cosignature
            BoardVerifier.Result uncosigned = verify(TlogFiles.directory(dir), List.of(witness), 1, List.of());
            assertTrue(
                    uncosigned.problems().toString().contains("0 valid cosignature(s)"),
                    uncosigned.problems().toString());
            BoardVerifier.Result forked = verify(TlogFiles.directory(dir), List.of(), 0, List.of(otherView));
            assertTrue(
                    forked.problems().toString().contains("the older checkpoint of size 300 is not a prefix"),
                    forked.problems().toString());
        }
    }

    static BoardVerifier.Result verify(TlogFiles files, List<Cosigner.Key> witnesses, int quorum, List<String> older)
            throws IOException {
        List<Cosigner.Verifier> keys = new ArrayList<>();
        witnesses.forEach(w -> keys.add(Cosigner.Verifier.parse(w.verifierKey())));
        return BoardVerifier.verify(
                files,
                new BoardVerifier.Options(
                        List.of(NoteVerifier.parse(View.SIGNER.verifierKey())), null, keys, quorum, older),
                (done, total, seconds) -> {});
    }

    /** Flips one byte of the file at {@code path} (inside its first entry or hash), verifies, restores it. */
    static void assertRefused(Path dir, String path, Cosigner.Key witness, String reason) throws IOException {
        Path f = dir.resolve(path);
        byte[] good = Files.readAllBytes(f);
        byte[] bad = good.clone();
        bad[path.startsWith("tile/entries") ? 5 : 0] ^= 1;
        Files.write(f, bad);
        try {
            BoardVerifier.Result r = verify(TlogFiles.directory(dir), List.of(witness), 1, List.of());
            assertTrue(r.problems().toString().contains(reason), r.problems().toString());
        } finally {
            Files.write(f, good);
        }
    }

    /** Copies the board's checkpoint, tiles and entries (as of the checkpoint) into {@code dir}. */
    static Path copy(TlogFiles from, String board, Path dir) throws Exception {
        List<String> paths = new ArrayList<>(List.of("checkpoint"));
        for (int t = 0; t < 3; t++) {
            int width = t < 2 ? 256 : RECORDS - 512;
            paths.add(org.electorallog.core.TileLayout.tilePath(0, t, width));
            paths.add(org.electorallog.core.TileLayout.entriesPath(t, width));
        }
        paths.add(org.electorallog.core.TileLayout.tilePath(1, 0, 2));
        for (String p : paths) {
            byte[] bytes = from.get(p);
            assertTrue(bytes != null, p + " of " + board);
            Path f = dir.resolve(p);
            Files.createDirectories(f.getParent());
            Files.write(f, bytes);
        }
        return dir;
    }
}
