package org.electorallog.statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.core.TlogProof;
import org.junit.jupiter.api.Test;

/**
 * Issue 68 item 5: test vectors of the chained tlog-proof (docs/witnesses.md "The chained proof,
 * precisely"), for another implementation to check its verifier against: {@link #DIR} holds
 * {@code keys.txt} (the log's and witnesses' verifier keys, the quorum, the two origins),
 * {@code cases.txt} (one line a case: file, valid or invalid, the record's leaf hash, why) and each
 * case's {@code .tlog-proof} file. The keys are fixed test keys (seeds 1..32, 33..64, 65..96; never a
 * real log's), so the files are the same on every run: this test makes them again and compares, then
 * verifies each case with {@link HeadChain#verify}. Rewrite after a deliberate format change with
 * {@code -Delectoral-log.vectors.write=true} (a new format, never an edit of an old one).
 */
class HeadChainVectorsTest {
    static final Path DIR = Path.of("src/test/resources/vectors/heads-chain");
    private static final String PREFIX = "log.example/";
    private static final HexFormat HEX = HexFormat.of();

    private final NoteSigner log = NoteSigner.fromSeed("log.example", seed(1));
    private final Cosigner.Key w1 =
            Cosigner.Key.parse(NoteSigner.fromSeed("w1.example", seed(33)).signerKey());
    private final Cosigner.Key w2 =
            Cosigner.Key.parse(NoteSigner.fromSeed("w2.example", seed(65)).signerKey());

    /** One vector: its proof, the leaf hash it is checked with, whether it must verify, and why. */
    @SuppressWarnings("ArrayRecordComponent") // written and compared as text
    private record Case(String proof, byte[] leaf, boolean valid, String why) {}

    @Test
    void theVectorsAreTheCodesAndEachVerifiesOrIsRefused() throws Exception {
        Map<String, String> files = files(cases());
        if (Boolean.getBoolean("electoral-log.vectors.write")) {
            Files.createDirectories(DIR);
            for (Map.Entry<String, String> f : files.entrySet()) {
                Files.writeString(DIR.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
        }
        for (Map.Entry<String, String> f : files.entrySet()) {
            assertEquals(
                    f.getValue(),
                    Files.readString(DIR.resolve(f.getKey()), StandardCharsets.UTF_8),
                    f.getKey() + " differs from what the code makes: a format change is a new vectors format");
        }
        // as another implementation would: from the files alone
        List<String> keys = Files.readAllLines(DIR.resolve("keys.txt"));
        NoteVerifier logKey = NoteVerifier.parse(value(keys, "log"));
        List<Cosigner.Verifier> witnesses = new ArrayList<>();
        for (String line : keys) {
            if (line.startsWith("witness ")) {
                witnesses.add(Cosigner.Verifier.parse(line.substring("witness ".length())));
            }
        }
        int quorum = Integer.parseInt(value(keys, "quorum"));
        int valid = 0;
        int invalid = 0;
        for (String line : Files.readAllLines(DIR.resolve("cases.txt"))) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ", 4);
            TlogProof proof = TlogProof.parse(Files.readString(DIR.resolve(f[0]), StandardCharsets.UTF_8));
            byte[] leaf = HEX.parseHex(f[2]);
            if (f[1].equals("valid")) {
                HeadChain.Verified v = HeadChain.verify(
                        proof,
                        leaf,
                        value(keys, "origin"),
                        value(keys, "heads-origin"),
                        List.of(logKey),
                        witnesses,
                        quorum);
                assertEquals(List.of("w1.example"), v.cosigners());
                valid++;
            } else {
                assertEquals("invalid", f[1], line);
                assertThrows(
                        ProofException.class,
                        () -> HeadChain.verify(
                                proof,
                                leaf,
                                value(keys, "origin"),
                                value(keys, "heads-origin"),
                                List.of(logKey),
                                witnesses,
                                quorum),
                        line);
                invalid++;
            }
        }
        assertEquals(1, valid);
        assertTrue(invalid >= 6, "a refused case for each link: " + invalid);
    }

    private Map<String, Case> cases() throws ProofException {
        Map<String, Case> out = new LinkedHashMap<>();
        HeadChainTest.Chain good = chain(PREFIX + "board-1", "heads", log.publicKey());
        out.put("valid", new Case(good.proof().format(), good.leaf(), true, "the record through the heads board"));
        out.put(
                "other-leaf",
                new Case(good.proof().format(), HeadChainTest.leaf(8), false, "another record's leaf hash"));
        HeadChainTest.Chain elsewhere = chain(PREFIX + "board-2", "heads", log.publicKey());
        out.put(
                "names-another-board",
                new Case(
                        elsewhere.proof().format(),
                        elsewhere.leaf(),
                        false,
                        "the heads entry names board-2's checkpoint"));
        HeadChainTest.Chain notHeads = chain(PREFIX + "board-1", "board-9", log.publicKey());
        out.put(
                "not-a-heads-entry",
                new Case(notHeads.proof().format(), notHeads.leaf(), false, "the entry is a statement of board-9"));
        HeadChainTest.Chain foreign =
                chain(PREFIX + "board-1", "heads", SigningKey.fromSeed(seed(97)).publicKey());
        out.put(
                "not-the-log-as-sender",
                new Case(
                        foreign.proof().format(), foreign.leaf(), false, "the entry names a sender key not the log's"));
        TlogProof head = TlogProof.parse(new String(good.proof().extra(), StandardCharsets.UTF_8));
        // the record's proof in C alone, without the link
        TlogProof plain = new TlogProof(
                null,
                good.proof().index(),
                good.proof().inclusion(),
                good.proof().checkpointNote());
        TlogProof bare = HeadChain.link(
                plain,
                head.extra(),
                new TlogProof(
                        null,
                        head.index(),
                        head.inclusion(),
                        SignedNote.sign(SignedNote.parse(head.checkpointNote()).text(), log)));
        out.put("heads-not-cosigned", new Case(bare.format(), good.leaf(), false, "H has no witness's cosignature"));
        List<byte[]> changed = new ArrayList<>(head.inclusion());
        byte[] first = changed.get(0).clone();
        first[0] ^= 0x01;
        changed.set(0, first);
        TlogProof broken =
                HeadChain.link(plain, head.extra(), new TlogProof(null, head.index(), changed, head.checkpointNote()));
        out.put(
                "heads-inclusion-changed",
                new Case(broken.format(), good.leaf(), false, "one bit of E's inclusion proof in H changed"));
        out.put("no-heads-link", new Case(plain.format(), good.leaf(), false, "an outer proof without the link"));
        return out;
    }

    private HeadChainTest.Chain chain(String namedOrigin, String headsBoard, byte[] sender) {
        return HeadChainTest.chain(log, w1, "board-1", namedOrigin, 7, headsBoard, sender);
    }

    private Map<String, String> files(Map<String, Case> cases) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(
                "keys.txt",
                "log " + log.verifierKey() + "\n" + "witness " + w1.verifierKey() + "\n" + "witness "
                        + w2.verifierKey() + "\n" + "quorum 1\n" + "origin " + PREFIX + "board-1\n"
                        + "heads-origin " + PREFIX + "heads\n");
        StringBuilder list = new StringBuilder(
                "# electoral-log heads chain vectors v1 (docs/witnesses.md \"The chained proof, precisely\")\n"
                        + "# <file> <valid|invalid> <leaf hash, hex> <what the case is>\n");
        int n = 0;
        for (Map.Entry<String, Case> c : cases.entrySet()) {
            String file = String.format("%02d-%s.tlog-proof", ++n, c.getKey());
            out.put(file, c.getValue().proof());
            list.append(file)
                    .append(' ')
                    .append(c.getValue().valid() ? "valid" : "invalid")
                    .append(' ')
                    .append(HEX.formatHex(c.getValue().leaf()))
                    .append(' ')
                    .append(c.getValue().why())
                    .append('\n');
        }
        out.put("cases.txt", list.toString());
        return out;
    }

    private static String value(List<String> lines, String key) throws IOException {
        for (String line : lines) {
            if (line.startsWith(key + " ")) {
                return line.substring(key.length() + 1);
            }
        }
        throw new IOException("keys.txt has no " + key);
    }

    private static byte[] seed(int from) {
        byte[] s = new byte[32];
        for (int i = 0; i < 32; i++) {
            s[i] = (byte) (from + i);
        }
        return s;
    }
}
