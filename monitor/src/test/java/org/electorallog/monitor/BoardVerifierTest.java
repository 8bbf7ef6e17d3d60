package org.electorallog.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TlogPolicy;
import org.electorallog.schemas.avro.LogContinuation;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.verifier.BoardVerifier;
import org.electorallog.verifier.RegistryExport;
import org.electorallog.verifier.TlogFiles;
import org.electorallog.verifier.Verification;
import org.electorallog.verifier.VerifyOptions;
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
            Verification fromApi = verify(api, List.of(), 0, List.of(older));
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
            // a C2SP tlog-policy (issue 68 item 3): the test's witness and one that did not cosign
            Cosigner.Key absent = Cosigner.Key.generate("witness.absent.test");
            String policy = "log " + View.SIGNER.verifierKey() + "\nwitness here " + witness.verifierKey()
                    + "\nwitness away " + absent.verifierKey() + "\n";
            Verification any = verify(dir, policy + "group g any here away\nquorum g\n", older);
            assertTrue(any.verified(), any.problems().toString());
            assertEquals(RECORDS, any.witnessedSize(), "the policy's quorum vouches for the board");
            Verification all = verify(dir, policy + "group g all here away\nquorum g\n", older);
            assertTrue(
                    all.problems().toString().contains("the quorum is the group g (2 of here, away)"),
                    all.problems().toString());

            assertRefused(
                    dir,
                    "tile/1/000.p/2",
                    witness,
                    "tile tile/1/000.p/2 differs from the tile rebuilt from the leaves");
            assertRefused(dir, "tile/entries/001", witness, "entry 256 does not hash to its leaf");
            Files.writeString(checkpoint, note.serialize()); // without the cosignature
            Verification uncosigned = verify(TlogFiles.directory(dir), List.of(witness), 1, List.of());
            assertTrue(
                    uncosigned.problems().toString().contains("0 valid cosignature(s)"),
                    uncosigned.problems().toString());
            Verification forked = verify(TlogFiles.directory(dir), List.of(), 0, List.of(otherView));
            assertTrue(
                    forked.problems().toString().contains("the checkpoint of size 300 is not a prefix"),
                    forked.problems().toString());
        }
    }

    /**
     * A board of signed statements sealed by a signed seal, a board that continues it, and one whose
     * continuation names the wrong root: signatures verified against the keys the entries name and a
     * registry export, the seal found last and agreed with the API, the good link verified against
     * the sealed board and the bad one refused; a changed signature, a key missing from the registry
     * and a copy without the previous board each refused with the reason.
     */
    @Test
    void signaturesTheSealAndContinuationLinks() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String sealed = "sealed-" + suffix;
        String next = "next-" + suffix;
        String broken = "broken-" + suffix;
        SigningKey sender = SigningKey.generate();
        SigningKey stranger = SigningKey.generate();
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "links-");
        Path registry = registry(work.resolve("senders.jsonl"), sender);
        try (View v = View.start("links")) {
            List<Statement> statements = new ArrayList<>(MonitorTest.statements(sealed, "vote-", 0, 300));
            statements.add(seal(sealed));
            v.publishSigned(statements, sender);
            v.awaitCheckpoint(sealed, 301);
            Checkpoint end = Checkpoint.parse(SignedNote.parse(new String(
                            TlogFiles.api(v.api().baseUrl(), sealed, null).get("checkpoint"), StandardCharsets.UTF_8))
                    .text());
            List<Statement> continued = new ArrayList<>(List.of(continuation(next, sealed, 301, end.root())));
            continued.addAll(MonitorTest.statements(next, "vote-", 0, 10));
            v.publishSigned(continued, sender);
            byte[] wrong = end.root().clone();
            wrong[0] ^= 1;
            v.publishSigned(List.of(continuation(broken, sealed, 301, wrong)), sender);
            v.awaitCheckpoint(next, 11);
            v.awaitCheckpoint(broken, 1);

            VerifyOptions withRegistry = options(sealed, RegistryExport.read(registry), v);
            Verification whole = BoardVerifier.verify(
                    TlogFiles.api(v.api().baseUrl(), sealed, View.OBSERVER), withRegistry, (d, t, x) -> {});
            assertTrue(whole.verified(), whole.problems().toString());
            assertEquals(301, whole.signed(), "every statement signature verified");
            assertEquals(301, whole.sealedSize());

            Verification link = BoardVerifier.verify(
                    TlogFiles.api(v.api().baseUrl(), next, View.OBSERVER), options(next, null, v), (d, t, x) -> {});
            assertTrue(link.verified(), link.problems().toString());
            assertEquals(sealed, link.continues());

            Verification bad = BoardVerifier.verify(
                    TlogFiles.api(v.api().baseUrl(), broken, View.OBSERVER), options(broken, null, v), (d, t, x) -> {});
            assertTrue(
                    bad.problems()
                            .toString()
                            .contains("broken continuation link: record 0 names board '" + sealed
                                    + "' at size 301 with root "
                                    + Base64.getEncoder().encodeToString(wrong)),
                    bad.problems().toString());

            Verification refused = BoardVerifier.verify(
                    TlogFiles.api(v.api().baseUrl(), sealed, View.OBSERVER),
                    options(sealed, RegistryExport.read(registry(work.resolve("other.jsonl"), stranger)), v),
                    (d, t, x) -> {});
            assertTrue(
                    refused.problems()
                            .get(0)
                            .contains("is not allowed by the sender registry given: its sender key "
                                    + "is not in the registry"),
                    refused.problems().toString());

            // a copy of the continued board without the board it continues cannot check the link
            Path copy = Files.createDirectories(work.resolve("next"));
            TlogFiles api = TlogFiles.api(v.api().baseUrl(), next, View.OBSERVER);
            for (String p : List.of(
                    "checkpoint",
                    TileLayout.tilePath(0, 0, 11),
                    TileLayout.entriesPath(0, 11),
                    TileLayout.signaturesPath(0, 11))) {
                Files.createDirectories(copy.resolve(p).getParent());
                Files.write(copy.resolve(p), api.get(p));
            }
            Verification alone =
                    BoardVerifier.verify(TlogFiles.directory(copy), options(next, null, null), (d, t, x) -> {});
            assertEquals(
                    List.of("the board continues board '" + sealed + "' and there is no source for that board to "
                            + "check the link with (verify-board --previous)"),
                    alone.problems());
            // a changed sender signature
            Path sigs = copy.resolve(TileLayout.signaturesPath(0, 11));
            byte[] changed = Files.readAllBytes(sigs);
            changed[73 * 4 + 9 + 5] ^=
                    1; // inside record 4's sender signature (items of 73 bytes: flags, time, signature)
            Files.write(sigs, changed);
            Verification forged =
                    BoardVerifier.verify(TlogFiles.directory(copy), options(next, null, null), (d, t, x) -> {});
            assertTrue(
                    forged.problems()
                            .contains("entry 4's sender signature does not verify with the sender key it names"),
                    forged.problems().toString());
        }
    }

    static VerifyOptions options(String board, RegistryExport registry, View boards) {
        return new VerifyOptions(
                List.of(NoteVerifier.parse(View.SIGNER.verifierKey())),
                null,
                List.of(),
                0,
                List.of(),
                board,
                List.of(),
                registry,
                boards == null ? null : name -> TlogFiles.api(boards.api().baseUrl(), name, View.OBSERVER));
    }

    /** A registry export (as {@code senders export} writes it) granting {@code key} every kind on every board. */
    static Path registry(Path file, SigningKey key) throws IOException {
        Files.writeString(
                file,
                "{\"grant_id\":1,\"public_key\":\"" + Base64.getEncoder().encodeToString(key.publicKey())
                        + "\",\"sender_name\":\"back-office\",\"board\":\"*\",\"kinds\":[\"*\"],"
                        + "\"valid_from\":\"2020-01-01T00:00:00Z\",\"valid_until\":null}\n");
        return file;
    }

    static Statement seal(String board) {
        return Statement.newBuilder(MonitorTest.statements(board, "seal-", 0, 1).get(0))
                .setDeliveryId(org.electorallog.statement.LogStatements.sealId(board))
                .setKind(StatementKind.BOARD_SEALED)
                .setUserId(null)
                .build();
    }

    static Statement continuation(String board, String previous, long size, byte[] root) {
        return Statement.newBuilder(
                        MonitorTest.statements(board, "continues-", 0, 1).get(0))
                .setKind(StatementKind.LOG_CONTINUATION)
                .setUserId(null)
                .setBody(LogContinuation.newBuilder()
                        .setPreviousBoard(previous)
                        .setPreviousSize(size)
                        .setPreviousRoot(ByteBuffer.wrap(root))
                        .build())
                .build();
    }

    static Verification verify(TlogFiles files, List<Cosigner.Key> witnesses, int quorum, List<String> older)
            throws IOException {
        List<Cosigner.Verifier> keys = new ArrayList<>();
        witnesses.forEach(w -> keys.add(Cosigner.Verifier.parse(w.verifierKey())));
        return BoardVerifier.verify(
                files,
                new VerifyOptions(List.of(NoteVerifier.parse(View.SIGNER.verifierKey())), null, keys, quorum, older),
                (done, total, seconds) -> {});
    }

    /** Verifies the board in {@code dir} under a C2SP tlog-policy's keys and quorum. */
    static Verification verify(Path dir, String policy, String older) throws IOException {
        return BoardVerifier.verify(
                TlogFiles.directory(dir),
                VerifyOptions.of(TlogPolicy.parse(policy), null, List.of(older), null, List.of(), null, null),
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
            Verification r = verify(TlogFiles.directory(dir), List.of(witness), 1, List.of());
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
