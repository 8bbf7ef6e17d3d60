package org.electorallog.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ML-DSA-44 signatures as C2SP tlog-cosignature ({@code subtree/v1}), tlog-checkpoint and signed-note
 * (type 0x06) define them: the signed message byte by byte, the key ID and vkey, the log's second
 * signature on a checkpoint, a witness's cosignature, each refused when one byte changes, and a policy
 * whose quorum asks for the ML-DSA-44 key not met by the same witness's Ed25519 cosignature.
 */
class PostQuantumSignatureTest {
    private static final byte[] SEED = new byte[32];

    static {
        Arrays.fill(SEED, (byte) 7);
    }

    private static final byte[] ROOT = Hashes.sha256("root".getBytes(StandardCharsets.UTF_8));

    @Test
    void theSignedMessageIsTheSpecificationsCosignedMessage() {
        // written from the struct of tlog-cosignature "ML-DSA-44 signed message", independently of Cosigner
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.writeBytes("subtree/v1\n\0".getBytes(StandardCharsets.US_ASCII));
        want.write(14);
        want.writeBytes("example.com/w1".getBytes(StandardCharsets.UTF_8));
        want.writeBytes(new byte[] {0, 0, 0, 0, 0x64, 0x18, 0x50, (byte) 0xCB}); // 1679315147
        want.write(27);
        want.writeBytes("example.com/behind-the-sofa".getBytes(StandardCharsets.UTF_8));
        want.writeBytes(new byte[8]); // start 0
        want.writeBytes(new byte[] {0, 0, 0, 0, 0x01, 0x3E, (byte) 0x2D, (byte) 0xC3}); // 20852163
        want.writeBytes(ROOT);
        assertArrayEquals(
                want.toByteArray(),
                Cosigner.subtreeMessage(
                        "example.com/w1", 1679315147L, "example.com/behind-the-sofa", 0, 20852163L, ROOT));
        assertEquals(12, "subtree/v1\n\0".length());
        refused(() -> Cosigner.subtreeMessage("w", 5, "o", 1, 2, ROOT), "timestamp 0");
        refused(() -> Cosigner.subtreeMessage("w".repeat(256), 0, "o", 0, 2, ROOT), "1 to 255 bytes");
    }

    @Test
    void keysHaveTheSpecificationsSizesKeyIdAndPrivateForm() {
        Cosigner.Key key = Cosigner.Key.mlDsa44FromSeed("example.com/w1", SEED);
        String vkey = key.verifierKey();
        String[] parts = vkey.split("\\+", 3);
        byte[] typed = Base64.getDecoder().decode(parts[2]);
        assertEquals(1 + 1312, typed.length);
        assertEquals(0x06, typed[0]);
        byte[] id = Arrays.copyOf(
                Hashes.sha256(
                        "example.com/w1\n".getBytes(StandardCharsets.UTF_8), typed), // name || "\n" || 0x06 || key
                4);
        assertEquals(Hex.encode(id), parts[1]);
        assertEquals(vkey, Cosigner.Verifier.parse(vkey).verifierKey());
        assertEquals(vkey, NoteVerifier.parse(vkey).verifierKey());
        // the private form round-trips to the same key and names the same key ID
        Cosigner.Key again = Cosigner.Key.parse(key.signerKey());
        assertEquals(vkey, again.verifierKey());
        assertTrue(key.signerKey().startsWith("PRIVATE+KEY+example.com/w1+" + parts[1] + "+"));
        refused(() -> Cosigner.Verifier.parse(vkey.replace("+" + parts[1] + "+", "+00000000+")), "does not match");
        refused(
                () -> Cosigner.Verifier.parse(parts[0] + "+" + parts[1] + "+"
                        + Base64.getEncoder().encodeToString(Arrays.copyOf(typed, 1000))),
                "0x06 + 1312 bytes");
    }

    @Test
    void aWitnessCosignsWithBothKindsAndEachRefusesAChangedByte() throws Exception {
        NoteSigner log = NoteSigner.generate("log.example");
        String note = new Checkpoint("log.example/board-1", 1000, ROOT).sign(log);
        Cosigner.Key ed = Cosigner.Key.generate("witness.example/w1");
        Cosigner.Key pq = Cosigner.Key.generateMlDsa44("witness.example/w1");
        SignedNote parsed = SignedNote.parse(note);
        String body = parsed.text();
        String cosigned = parsed.withSignature(ed.cosign(body, 1700000000L))
                .withSignature(pq.cosign(body, 1700000001L))
                .serialize();
        SignedNote n = SignedNote.parse(cosigned);
        assertEquals(1700000000L, Cosigner.Verifier.parse(ed.verifierKey()).verify(n));
        assertEquals(1700000001L, Cosigner.Verifier.parse(pq.verifierKey()).verify(n));
        // every byte of the ML-DSA-44 line after the key ID (timestamp and signature) matters
        SignedNote.Signature line = Cosigner.Verifier.parse(pq.verifierKey()).cosignature(n);
        Cosigner.Verifier v = Cosigner.Verifier.parse(pq.verifierKey());
        for (int i : new int[] {0, 7, 8, 100, 2427}) {
            byte[] blob = line.signature().clone();
            blob[i] ^= 1;
            assertThrows(ProofException.class, () -> v.check(body, blob), "byte " + i);
        }
        // and so does each line of the checkpoint the message is built from
        for (String changed : List.of(
                body.replace("board-1", "board-2"),
                body.replace("\n1000\n", "\n1001\n"),
                body.replace(
                        Base64.getEncoder().encodeToString(ROOT),
                        Base64.getEncoder().encodeToString(new byte[32])))) {
            assertThrows(ProofException.class, () -> v.check(changed, line.signature()));
        }
        // a signature under another name: subtree/v1 commits to the cosigner's name, cosignature/v1 does not
        Cosigner.Key renamed = Cosigner.Key.mlDsa44FromSeed("witness.example/w2", SEED);
        Cosigner.Key original = Cosigner.Key.mlDsa44FromSeed("witness.example/w1", SEED);
        SignedNote.Signature other = renamed.cosign(body, 5);
        assertThrows(
                ProofException.class,
                () -> Cosigner.Verifier.parse(original.verifierKey()).check(body, other.signature()));
    }

    @Test
    void theLogSignsACheckpointWithBothKeysAndAVerifierOfEitherKeyOpensIt() throws Exception {
        NoteSigner log =
                NoteSigner.generate("log.example").withPostQuantum(Cosigner.Key.generateMlDsa44("log.example"));
        assertEquals(2, log.verifierKeys().size());
        Checkpoint cp = new Checkpoint("log.example/board-1", 42, ROOT);
        String both = cp.sign(log, true, 1700000000L);
        assertEquals(cp.sign(log), cp.sign(log, false, 1700000000L)); // Ed25519 alone when not asked
        assertTrue(both.length() < 8 * 1024, both.length() + " bytes");
        NoteVerifier ed = NoteVerifier.parse(log.verifierKeys().get(0));
        NoteVerifier pq = NoteVerifier.parse(log.verifierKeys().get(1));
        assertTrue(pq.postQuantum());
        assertFalse(ed.postQuantum());
        assertEquals(cp, Checkpoint.open(both, List.of(ed)));
        assertEquals(cp, Checkpoint.open(both, List.of(pq)));
        assertEquals(cp, Checkpoint.open(both, List.of(ed, pq)));
        // a checkpoint signed with Ed25519 alone does not satisfy a verifier that knows only the ML-DSA-44 key
        refusedProof(() -> Checkpoint.open(cp.sign(log), List.of(pq)), "not signed by any known key");
        // one byte changed in the ML-DSA-44 line refuses the note for a verifier that knows that key
        String[] lines = both.split("\n");
        String pqLine = lines[lines.length - 1];
        byte[] blob = Base64.getDecoder().decode(pqLine.substring(pqLine.lastIndexOf(' ') + 1));
        blob[20] ^= 1;
        String broken = both.replace(
                pqLine,
                pqLine.substring(0, pqLine.lastIndexOf(' ') + 1)
                        + Base64.getEncoder().encodeToString(blob));
        refusedProof(() -> Checkpoint.open(broken, List.of(pq)), "does not verify");
        refusedProof(() -> Checkpoint.open(broken, List.of(ed, pq)), "does not verify");
        assertEquals(cp, Checkpoint.open(broken, List.of(ed))); // an unknown key's line is ignored (signed-note)
        // the ML-DSA-44 signature does not cover extension lines; the Ed25519 one does
        Checkpoint extended = new Checkpoint("log.example/board-1", 42, ROOT, List.of("extra"));
        String ext = extended.sign(log, true, 1700000000L);
        String replaced = ext.replaceFirst("\nextra\n", "\nother\n");
        assertEquals(
                new Checkpoint("log.example/board-1", 42, ROOT, List.of("other")),
                Checkpoint.open(replaced, List.of(pq)));
        refusedProof(() -> Checkpoint.open(replaced, List.of(ed)), "does not verify");
    }

    @Test
    void aQuorumThatAsksForTheMlDsaKeyIsNotMetByTheEd25519CosignatureAlone() throws Exception {
        Cosigner.Key ed = Cosigner.Key.generate("witness.example/w1");
        Cosigner.Key pq = Cosigner.Key.generateMlDsa44("witness.example/w1");
        Cosigner.Key otherPq = Cosigner.Key.generateMlDsa44("witness.other/w2");
        NoteSigner log = NoteSigner.generate("log.example");
        TlogPolicy policy = TlogPolicy.parse("log " + log.verifierKey() + "\n"
                + "witness w1-ed " + ed.verifierKey() + "\n"
                + "witness w1-pq " + pq.verifierKey() + "\n"
                + "witness w2-pq " + otherPq.verifierKey() + "\n"
                + "group post-quantum 2 w1-pq w2-pq\n"
                + "group w1 all w1-ed w1-pq\n"
                + "group both all w1 post-quantum\n"
                + "quorum both\n");
        Cosigner.Verifier edV = Cosigner.Verifier.parse(ed.verifierKey());
        Cosigner.Verifier pqV = Cosigner.Verifier.parse(pq.verifierKey());
        Cosigner.Verifier otherV = Cosigner.Verifier.parse(otherPq.verifierKey());
        assertFalse(policy.met(List.of(edV)));
        assertFalse(policy.met(List.of(edV, pqV)));
        assertFalse(policy.met(List.of(pqV, otherV)));
        assertTrue(policy.met(List.of(edV, pqV, otherV)));
        // through the tlog-proof verifier: the bundle's cosignatures are what counts (a one-leaf tree: root = leaf)
        NoteSigner both = log.withPostQuantum(Cosigner.Key.generateMlDsa44("log.example"));
        SignedNote parsed = SignedNote.parse(new Checkpoint("log.example/board-1", 1, ROOT).sign(both, true, 9));
        String edOnly = parsed.withSignature(ed.cosign(parsed.text(), 1)).serialize();
        ProofException e = assertThrows(ProofException.class, () -> proof(edOnly, policy));
        assertTrue(e.getMessage().contains("the group both"), e.getMessage());
        String all = parsed.withSignature(ed.cosign(parsed.text(), 1))
                .withSignature(pq.cosign(parsed.text(), 1))
                .withSignature(otherPq.cosign(parsed.text(), 1))
                .serialize();
        assertEquals(
                List.of("witness.example/w1", "witness.example/w1", "witness.other/w2"),
                proof(all, policy).cosigners());
    }

    private static TlogProof.Verified proof(String note, TlogPolicy policy) throws ProofException {
        return new TlogProof(null, 0, List.of(), note)
                .verify(ROOT, "log.example/board-1", policy.logKeys(), policy.witnessKeys(), policy);
    }

    private static void refused(Runnable r, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void refusedProof(Call r, String why) {
        ProofException e = assertThrows(ProofException.class, r::run);
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }
}
