package org.electorallog.statement;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.Quorum;
import org.electorallog.core.TlogProof;

/**
 * A record's proof through the heads board ({@link HeadsBoard}, docs/witnesses.md), as one C2SP
 * tlog-proof: the record's inclusion in its board's checkpoint C (signed by the log, not cosigned),
 * whose {@code extra} data is a second tlog-proof, of the heads entry E naming C in a heads checkpoint
 * H that the witnesses cosigned, whose own {@code extra} is E itself (its canonical statement bytes).
 *
 * <pre>
 * c2sp.org/tlog-proof@v1
 * extra base64( c2sp.org/tlog-proof@v1        the heads link
 *               extra base64(E)
 *               index &lt;E's index in the heads board&gt;
 *               &lt;E's inclusion proof in H&gt;
 *
 *               &lt;H, with the witnesses' cosignatures&gt; )
 * index &lt;the record's index&gt;
 * &lt;the record's inclusion proof in C&gt;
 *
 * &lt;C, signed by the log&gt;
 * </pre>
 *
 * The outer extra data may first name the policy ({@link ProofExtra}: one {@code policy sha256:}
 * line before the link).
 *
 * <p>tlog-proof calls its extra data unauthenticated: nothing here is trusted for being in it. The
 * chain holds because each link is checked: the record in C under the log's key, E's leaf in H under
 * the log's key and the quorum of cosignatures, and E naming C's origin, size and root.
 */
public final class HeadChain {
    private HeadChain() {}

    /** The chained proof: the record's proof in C carrying the heads link (E's proof in H, with E). */
    public static TlogProof link(TlogProof recordInBoard, byte[] headsEntry, TlogProof entryInHeads) {
        return link(recordInBoard, headsEntry, entryInHeads, null);
    }

    /**
     * As {@link #link(TlogProof, byte[], TlogProof)}, its extra data first naming the policy the
     * heads checkpoint was witnessed under ({@link ProofExtra}; none when {@code policyName} is null).
     */
    public static TlogProof link(
            TlogProof recordInBoard, byte[] headsEntry, TlogProof entryInHeads, String policyName) {
        TlogProof head = new TlogProof(
                headsEntry, entryInHeads.index(), entryInHeads.inclusion(), entryInHeads.checkpointNote());
        return new TlogProof(
                ProofExtra.of(policyName, head.format().getBytes(StandardCharsets.UTF_8)),
                recordInBoard.index(),
                recordInBoard.inclusion(),
                recordInBoard.checkpointNote());
    }

    /** Whether a tlog-proof carries a heads link (its extra data is a tlog-proof). */
    public static boolean isChained(TlogProof proof) {
        byte[] link = ProofExtra.link(proof.extra());
        return link != null && new String(link, StandardCharsets.UTF_8).startsWith(TlogProof.HEADER + "\n");
    }

    /** What {@link #verify} checked: the board's checkpoint, the cosigned heads checkpoint and its cosigners. */
    public record Verified(Checkpoint board, Checkpoint heads, List<String> cosigners) {
        public Verified {
            cosigners = List.copyOf(cosigners);
        }
    }

    /**
     * Verifies a chained proof for the entry with leaf hash {@code leafHash}: the record's checkpoint C
     * is signed by a log key with origin {@code origin} and the inclusion proof leads to its root (RFC
     * 9162 section 2.1.3.2); the heads entry E reads as a heads board statement naming C; E's leaf is in
     * the heads checkpoint H, signed by a log key with origin {@code headsOrigin} and cosigned by at
     * least {@code quorum} of {@code witnesses} (tlog-cosignature).
     */
    public static Verified verify(
            TlogProof proof,
            byte[] leafHash,
            String origin,
            String headsOrigin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            int quorum)
            throws ProofException {
        return verify(proof, leafHash, origin, headsOrigin, logKeys, witnesses, Quorum.atLeast(quorum));
    }

    /** As above with any quorum rule on H's cosignatures, such as a C2SP tlog-policy's ({@link org.electorallog.core.TlogPolicy}). */
    public static Verified verify(
            TlogProof proof,
            byte[] leafHash,
            String origin,
            String headsOrigin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            Quorum quorum)
            throws ProofException {
        if (!isChained(proof)) {
            throw new ProofException(
                    "the proof carries no heads link (its board's checkpoints are witnessed on their own)");
        }
        TlogProof.Verified board = proof.verify(leafHash, origin, logKeys, List.of(), Quorum.atLeast(0));
        TlogProof head = TlogProof.parse(new String(ProofExtra.link(proof.extra()), StandardCharsets.UTF_8));
        return verifyLink(board.checkpoint(), head, headsOrigin, logKeys, witnesses, quorum);
    }

    /**
     * Verifies a heads link of a board checkpoint {@code board} already verified (signature and
     * origin): {@code head} is the heads entry's proof, carrying the entry as its extra data; the entry
     * reads as a heads board statement naming {@code board}, sent by the log's key; its leaf is in the heads checkpoint,
     * signed by a log key with origin {@code headsOrigin} and cosigned by at least {@code quorum} of
     * {@code witnesses}. What {@code verify-board} and the monitor check of GET
     * /boards/{board}/heads-link.
     */
    public static Verified verifyLink(
            Checkpoint board,
            TlogProof head,
            String headsOrigin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            int quorum)
            throws ProofException {
        return verifyLink(board, head, headsOrigin, logKeys, witnesses, Quorum.atLeast(quorum));
    }

    /** As above with any quorum rule on the heads checkpoint's cosignatures. */
    public static Verified verifyLink(
            Checkpoint board,
            TlogProof head,
            String headsOrigin,
            Collection<NoteVerifier> logKeys,
            Collection<Cosigner.Verifier> witnesses,
            Quorum quorum)
            throws ProofException {
        if (head.extra() == null) {
            throw new ProofException("the heads link does not carry the heads entry");
        }
        HeadsBoard.checkNames(head.extra(), board);
        HeadsBoard.checkSigner(head.extra(), logKeys);
        TlogProof.Verified heads;
        try {
            heads = head.verify(Hashes.leafHash(head.extra()), headsOrigin, logKeys, witnesses, quorum);
        } catch (ProofException e) {
            throw new ProofException("the heads link: " + e.getMessage(), e);
        }
        return new Verified(board, heads.checkpoint(), heads.cosigners());
    }
}
