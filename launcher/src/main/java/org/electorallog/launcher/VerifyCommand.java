package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.Quorum;
import org.electorallog.core.TlogPolicy;
import org.electorallog.core.TlogProof;
import org.electorallog.statement.HeadChain;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.verifier.PublishedTiles;
import org.electorallog.verifier.TlogFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log verify FILE}: checks a C2SP tlog-proof bundle offline, with nothing but the
 * keys given here: the checkpoint's signature by the log, its origin, a quorum of witness
 * cosignatures, and the inclusion of the entry (its leaf hash, or the entry itself) at the proof's
 * index (core {@link TlogProof#verify(byte[], String, java.util.Collection, java.util.Collection, int)}).
 * Exit 0 when it holds, 1 with the reason when it does not, 2 when the command is wrong.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Check a tlog-proof bundle offline against the log's and witnesses' keys. Exit 0 verified, "
                + "1 not verified (with the reason), 2 usage error.")
public final class VerifyCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            arity = "0..1",
            description =
                    "the tlog-proof file (GET /boards/{board}/records/{id}/proof-bundle); or --tiles-url with --record")
    Path file;

    @Option(
            names = "--tiles-url",
            description = "instead of a file: the board's static publication (publish-tiles behind a web server, e.g. "
                    + "https://tiles.example/board-1); the proof is built here from its checkpoint and tiles")
    String tilesUrl;

    @Option(names = "--record", description = "with --tiles-url: the record's number")
    Long record;

    @Option(names = "--log-key", description = "the log's verifier key (GET /log-keys); repeatable")
    List<String> logKeys = new ArrayList<>();

    @Option(
            names = "--policy",
            description =
                    "a C2SP tlog-policy file: the logs, the witnesses and the quorum (groups, nested), instead of "
                            + "--log-key, --witness and --quorum")
    Path policy;

    /** The name of the --policy file given ({@link ProofExtra#policyName}), or null. */
    private String givenPolicy;

    @Option(
            names = "--origin",
            required = true,
            description = "the board's checkpoint origin, e.g. log.election.example/board-1")
    String origin;

    @Option(names = "--leaf-hash", description = "the entry's RFC 6962 leaf hash (base64 or hex), e.g. from a receipt")
    String leafHash;

    @Option(names = "--entry", description = "a file with the entry itself (the canonical statement bytes)")
    Path entry;

    @Option(names = "--witness", description = "a witness's cosigner verifier key; repeatable")
    List<String> witnesses = new ArrayList<>();

    @Option(names = "--quorum", description = "how many of the witnesses must have cosigned; default all given")
    Integer quorum;

    @Option(
            names = "--heads-origin",
            description = "for a bundle through the heads board: the heads board's checkpoint origin; default the "
                    + "board's origin up to its last '/' followed by 'heads'")
    String headsOrigin;

    /** Where the verdict goes (callers outside the launcher, such as the dev module's tests, set both). */
    public PrintStream out = System.out;

    public PrintStream err = System.err;

    @Override
    public Integer call() {
        TlogProof proof;
        byte[] leaf;
        List<NoteVerifier> logs = new ArrayList<>();
        List<Cosigner.Verifier> cosigners = new ArrayList<>();
        Quorum rule;
        try {
            if ((leafHash == null) == (entry == null)) {
                throw new IllegalArgumentException("give exactly one of --leaf-hash and --entry");
            }
            leaf = entry != null ? Hashes.leafHash(Files.readAllBytes(entry)) : hash(leafHash);
            if (policy != null) {
                if (!logKeys.isEmpty() || !witnesses.isEmpty() || quorum != null) {
                    throw new IllegalArgumentException("--policy names the logs, witnesses and quorum: "
                            + "give it without --log-key, --witness, --quorum");
                }
                String policyText = Files.readString(policy, StandardCharsets.UTF_8);
                givenPolicy = ProofExtra.policyName(policyText);
                TlogPolicy p = TlogPolicy.parse(policyText);
                logs.addAll(p.logKeys());
                cosigners.addAll(p.witnessKeys());
                rule = p;
            } else {
                for (String k : logKeys) {
                    logs.add(NoteVerifier.parse(k));
                }
                for (String w : witnesses) {
                    cosigners.add(Cosigner.Verifier.parse(w));
                }
                int needed = quorum == null ? cosigners.size() : quorum;
                if (needed < 0 || needed > cosigners.size()) {
                    throw new IllegalArgumentException("the quorum must be between 0 and the " + cosigners.size()
                            + " witness key(s) given, not " + needed);
                }
                rule = Quorum.atLeast(needed);
            }
            if (logs.isEmpty()) {
                throw new IllegalArgumentException("give the log's verifier key (--log-key), or a --policy naming it");
            }
            if ((file == null) == (tilesUrl == null) || (tilesUrl != null) != (record != null)) {
                throw new IllegalArgumentException("give a tlog-proof file, or --tiles-url with --record");
            }
            try {
                proof = file != null
                        ? TlogProof.parse(Files.readString(file, StandardCharsets.UTF_8))
                        : PublishedTiles.proof(TlogFiles.url(tilesUrl.replaceAll("/+$", "")), record);
            } catch (ProofException e) {
                err.println("verify: NOT VERIFIED: " + (file != null ? file + " is not a tlog-proof" : tilesUrl) + ": "
                        + e.getMessage());
                return 1;
            }
        } catch (IllegalArgumentException | IOException e) {
            err.println("verify: " + e.getMessage());
            return 2;
        }
        try {
            namedPolicy(proof);
            if (HeadChain.isChained(proof)) {
                return chained(proof, leaf, logs, cosigners, rule);
            }
            TlogProof.Verified v = proof.verify(leaf, origin, logs, cosigners, rule);
            out.println("verify: VERIFIED: the entry with leaf hash "
                    + Base64.getEncoder().encodeToString(leaf)
                    + " is record " + proof.index() + " of " + origin + ", in the tree of size "
                    + v.checkpoint().size() + " whose root "
                    + Base64.getEncoder().encodeToString(v.checkpoint().root())
                    + " the log signed"
                    + (v.cosigners().isEmpty()
                            ? " (no witness was asked for)"
                            : " and " + v.cosigners().size() + " witness(es) cosigned: "
                                    + String.join(", ", v.cosigners())));
            return 0;
        } catch (ProofException e) {
            err.println("verify: NOT VERIFIED: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("verify: " + e.getMessage());
            return 2;
        }
    }

    /**
     * Says which policy the bundle names (decision 150: its extra data, not authenticated) and
     * whether it is the one given: a verifier years later fetches the named one, and one that wrote
     * its own policy sees that it differs from the log's.
     */
    private void namedPolicy(TlogProof proof) {
        Optional<String> named = ProofExtra.policy(proof.extra());
        if (named.isEmpty()) {
            return;
        }
        out.println("verify: the bundle names the policy sha256:" + named.get()
                + (givenPolicy == null
                        ? " (the log serves it at GET /boards/{board}/policy)"
                        : named.get().equals(givenPolicy)
                                ? ", the --policy given"
                                : "; the --policy given is another (sha256:" + givenPolicy + ")"));
    }

    /** A bundle through the heads board (statement {@link HeadChain}): the witnesses cosigned the heads checkpoint. */
    private int chained(
            TlogProof proof, byte[] leaf, List<NoteVerifier> logs, List<Cosigner.Verifier> cosigners, Quorum rule)
            throws ProofException {
        String heads = headsOrigin != null ? headsOrigin : HeadsBoard.originBeside(origin);
        HeadChain.Verified v = HeadChain.verify(proof, leaf, origin, heads, logs, cosigners, rule);
        out.println("verify: VERIFIED: the entry with leaf hash "
                + Base64.getEncoder().encodeToString(leaf)
                + " is record " + proof.index() + " of " + origin + ", in the tree of size "
                + v.board().size() + " whose root "
                + Base64.getEncoder().encodeToString(v.board().root())
                + " the log signed; that checkpoint is entered on the heads board " + heads
                + ", in its tree of size " + v.heads().size() + " that the log signed"
                + (v.cosigners().isEmpty()
                        ? " (no witness was asked for)"
                        : " and " + v.cosigners().size() + " witness(es) cosigned: "
                                + String.join(", ", v.cosigners())));
        return 0;
    }

    private static byte[] hash(String text) {
        String t = text.strip();
        byte[] out;
        try {
            out = t.length() == 64
                    ? HexFormat.of().parseHex(t)
                    : Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--leaf-hash is neither base64 nor 64 hex digits");
        }
        if (out.length != 32) {
            throw new IllegalArgumentException("--leaf-hash must be 32 bytes, got " + out.length);
        }
        return out;
    }
}
