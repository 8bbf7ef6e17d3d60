package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileTree;
import org.electorallog.core.TlogProof;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * `electoral-log verify FILE` (issue 18, item 4): a bundle verifies offline against the log's key
 * and a witness quorum; a changed byte, another log key and a missing cosignature each fail with
 * exit 1 and the reason.
 */
class VerifyCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int verify(String... args) {
        out.reset();
        err.reset();
        VerifyCommand c = new VerifyCommand();
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new CommandLine(c).execute(args);
    }

    @Test
    void aBundleVerifiesOnlyWithTheRightKeysProofAndQuorum() throws Exception {
        String origin = "log.election.example/board-1";
        List<byte[]> leaves = new ArrayList<>();
        TileTree tree = TileTree.empty();
        for (int i = 0; i < 300; i++) {
            byte[] leaf = Hashes.leafHash(("statement " + i).getBytes(StandardCharsets.UTF_8));
            leaves.add(leaf);
            tree.appendLeafHash(leaf);
        }
        Map<TileKey, byte[]> tiles = new HashMap<>();
        tree.drainChangedTiles().forEach(t -> tiles.put(t.key(), t.hashes()));
        NoteSigner log = NoteSigner.generate("log.election.example");
        Cosigner.Key w1 = Cosigner.Key.generate("witness.party-a.example");
        Cosigner.Key w2 = Cosigner.Key.generate("witness.ngo-b.example");
        Cosigner.Key w3 = Cosigner.Key.generate("witness.authority-c.example");
        Checkpoint cp = new Checkpoint(origin, 300, tree.root());
        String note = SignedNote.parse(cp.sign(log))
                .withSignature(w1.cosign(cp.body(), 1_790_000_000L))
                .withSignature(w2.cosign(cp.body(), 1_790_000_001L))
                .serialize();
        String bundle = new TlogProof(null, 123, ProofBuilder.inclusion(123, 300, keys -> tiles), note).format();
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "verify-");
        Path good = Files.writeString(dir.resolve("ballot.tlog-proof"), bundle);
        String leaf = Base64.getEncoder().encodeToString(leaves.get(123));
        String[] keys = {
            "--log-key",
            log.verifierKey(),
            "--origin",
            origin,
            "--witness",
            w1.verifierKey(),
            "--witness",
            w2.verifierKey(),
            "--witness",
            w3.verifierKey()
        };

        assertEquals(
                0,
                verify(concat(new String[] {good.toString(), "--leaf-hash", leaf, "--quorum", "2"}, keys)),
                err.toString());
        assertTrue(
                out.toString().contains("VERIFIED: the entry with leaf hash " + leaf + " is record 123"),
                out.toString());
        assertTrue(out.toString().contains("2 witness(es) cosigned"), out.toString());

        // the third witness did not cosign: a quorum of three fails
        assertEquals(1, verify(concat(new String[] {good.toString(), "--leaf-hash", leaf, "--quorum", "3"}, keys)));
        assertTrue(
                err.toString()
                        .contains("the quorum is 3 of the witnesses; not cosigned by: witness.authority-c.example"),
                err.toString());
        // another record's leaf
        assertEquals(
                1,
                verify(concat(
                        new String[] {
                            good.toString(),
                            "--leaf-hash",
                            Base64.getEncoder().encodeToString(leaves.get(124)),
                            "--quorum",
                            "2"
                        },
                        keys)));
        // one changed byte in the proof's hashes
        String h = bundle.split("\n")[2];
        byte[] raw = Base64.getDecoder().decode(h);
        raw[0] ^= 1;
        Path tampered = Files.writeString(
                dir.resolve("tampered.tlog-proof"),
                bundle.replace(h, Base64.getEncoder().encodeToString(raw)));
        assertEquals(1, verify(concat(new String[] {tampered.toString(), "--leaf-hash", leaf, "--quorum", "2"}, keys)));
        // a checkpoint signed by another key
        assertEquals(
                1,
                verify(
                        good.toString(),
                        "--leaf-hash",
                        leaf,
                        "--origin",
                        origin,
                        "--log-key",
                        NoteSigner.generate("log.election.example").verifierKey()));
        assertTrue(err.toString().startsWith("verify: NOT VERIFIED"), err.toString());
        // another board's origin
        assertEquals(
                1,
                verify(
                        good.toString(),
                        "--leaf-hash",
                        leaf,
                        "--origin",
                        "log.election.example/board-2",
                        "--log-key",
                        log.verifierKey()));
        // a C2SP tlog-policy (issue 68 item 3): w1 and w2 cosigned. Two groups: the parties (2 of w1, w3)
        // and anyone (any of w2): "all" of them needs w3, which did not cosign; "any" of them is met
        String parties = "log " + log.verifierKey() + "\n# the parties' witnesses\n"
                + "witness a " + w1.verifierKey() + "\nwitness c " + w3.verifierKey() + "\n"
                + "witness b " + w2.verifierKey() + "\ngroup parties all a c\ngroup others any b\n";
        Path strict = Files.writeString(
                dir.resolve("strict.policy"), parties + "group both all parties others\nquorum both\n");
        Path loose = Files.writeString(
                dir.resolve("loose.policy"), parties + "group either any parties others\nquorum either\n");
        assertEquals(
                0,
                verify(good.toString(), "--leaf-hash", leaf, "--origin", origin, "--policy", loose.toString()),
                err.toString());
        assertEquals(
                1, verify(good.toString(), "--leaf-hash", leaf, "--origin", origin, "--policy", strict.toString()));
        assertTrue(
                err.toString().contains("the quorum is the group both (2 of parties (2 of a, c), others (1 of b))"),
                err.toString());
        assertEquals(
                2,
                verify(concat(new String[] {good.toString(), "--leaf-hash", leaf, "--policy", loose.toString()}, keys)),
                "a policy with keys given besides");
        Path broken = Files.writeString(dir.resolve("broken.policy"), parties + "quorum nobody\n");
        assertEquals(
                2, verify(good.toString(), "--leaf-hash", leaf, "--origin", origin, "--policy", broken.toString()));
        assertTrue(err.toString().contains("policy line 8: quorum 'nobody' is not defined"), err.toString());
        // usage errors
        assertEquals(2, verify(good.toString(), "--origin", origin, "--log-key", log.verifierKey()));
        assertEquals(2, verify(concat(new String[] {good.toString(), "--leaf-hash", leaf, "--quorum", "4"}, keys)));
    }

    static String[] concat(String[] a, String[] b) {
        String[] r = new String[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
