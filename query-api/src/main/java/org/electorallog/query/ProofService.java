package org.electorallog.query;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.LogDivergenceException;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.Range;
import org.electorallog.core.RecordProof;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileSource;
import org.electorallog.core.TlogProof;
import org.electorallog.core.TreeMath;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardTip;
import org.electorallog.store.CheckpointRow;
import org.electorallog.store.Deliveries;
import org.electorallog.store.ProofTip;
import org.electorallog.store.Tiles;

/**
 * Proofs from the stored tiles (RFC 9162 section 2.1.3 inclusion, 2.1.4 consistency; C2SP
 * tlog-proof bundles), each built in one snapshot so the hashes, the size and the checkpoint belong
 * to one tree. A proof at the latest checkpoint (a record proof, a consistency proof to it, a proof
 * from a trusted checkpoint) is one autocommitted statement ({@link BoardTips#PROOF_TIP_SQL}: the
 * board, its size, its latest checkpoint and the tiles on the paths of the proof's leaves and of the
 * tree's right edge). Proofs at another size and tlog-proof bundles are two statements in one
 * snapshot: the board with its size and a checkpoint ({@link BoardTips#TIP_SQL}), then every hash the
 * proof needs, the leaf's own included (a leaf hash is a level-0 tile entry, C2SP tlog-tiles), in
 * one tile query ({@link Tiles#BY_KEYS_SQL}).
 */
final class ProofService {
    private final SnapshotReads reads;
    private final FullTiles fullTiles;
    private final HeadLinkService heads;

    /** The name of the policy served beside the checkpoints, which each bundle carries ({@link ProofExtra}). */
    private final String policyName;

    ProofService(SnapshotReads reads, FullTiles fullTiles, HeadLinkService heads, String policyName) {
        this.reads = reads;
        this.fullTiles = fullTiles;
        this.heads = heads;
        this.policyName = policyName;
    }

    /**
     * Where the statement of {@code deliveryId} with leaf hash {@code leafHash} was recorded on board
     * {@code name}: what a sender asks to learn that its statement is on the board, not only
     * acknowledged by Kafka (issue 61 item 7). One autocommitted probe of the deliveries primary key
     * and the record's level-0 tile. 404 unless the record holding the ID has exactly that leaf hash,
     * so the answer tells nothing to a caller who does not hold the statement.
     */
    Responses.Delivery delivery(String name, String deliveryId, byte[] leafHash) {
        return reads.proofStatement(r -> {
            Optional<Deliveries.Projected> p = r.delivery(name, deliveryId);
            if (p.isEmpty() || !MessageDigest.isEqual(p.get().leafHash(), leafHash)) {
                throw ApiException.notFound("board " + name + " holds no record of delivery ID '" + deliveryId
                        + "' with this leaf hash (yet): not projected so far, refused (the dead-letter topic says why), "
                        + "or another statement holds the ID");
            }
            return new Responses.Delivery(
                    name, deliveryId, p.get().record(), Base64.getEncoder().encodeToString(leafHash));
        });
    }

    /**
     * Inclusion proof of record {@code id} at {@code size} (null = the latest checkpoint). At the
     * latest checkpoint, the proof a voter asks for, it is one autocommitted statement: the tip and
     * the tiles of the record's path and the tree's right edge ({@link BoardTips#PROOF_TIP_SQL}),
     * with the checkpoint's signed root (decision 71).
     */
    Responses.InclusionProof inclusion(String name, long id, Long requestedSize) {
        if (requestedSize == null) {
            return reads.proofStatement(r -> {
                ProofTip t = SnapshotReads.proofTip(r, name, id);
                CheckpointRow cp = t.tip().checkpoint();
                long size = sizeOrLatest(name, "size", null, cp, t.tip().size());
                return inclusionProof(name, id, size, cp, t.source(size, id));
            });
        }
        return reads.proofRead(r -> {
            BoardTip tip = SnapshotReads.tip(r, name);
            CheckpointRow cp = tip.checkpoint();
            long size = sizeOrLatest(name, "size", requestedSize, cp, tip.size());
            return inclusionProof(
                    name,
                    id,
                    size,
                    cp,
                    fullTiles.over(name, r.tileSource(tip.board().id())));
        });
    }

    /** The proof of record {@code id} at {@code size} from {@code tiles}: 400 when the record is not in that tree. */
    private static Responses.InclusionProof inclusionProof(
            String name, long id, long size, CheckpointRow cp, TileSource tiles) {
        if (id >= size) {
            throw ApiException.badRequest(
                    "record " + id + " is not in the tree of size " + size + " (IDs run from 0 to " + (size - 1) + ")");
        }
        // the leaf hash, the audit path and (at a size other than the checkpoint's) the root in one tile read
        List<byte[]> hashes =
                hashes(List.of(new Range(id, id + 1)), TreeMath.inclusionRanges(id, size), cp, size, tiles);
        return new Responses.InclusionProof(
                name,
                id,
                size,
                Responses.b64(hashes.get(1)),
                Responses.b64(hashes.subList(2, hashes.size())),
                Responses.b64(hashes.get(0)),
                noteAt(cp, size));
    }

    /**
     * Inclusion proof of the cast vote whose RFC 6962 leaf hash is {@code leafHash} (a voter's
     * receipt holding only the hash), at {@code size} (null = the latest checkpoint).
     */
    Responses.InclusionProof inclusionOfLeaf(String name, byte[] leafHash, Long requestedSize) {
        long id = reads.proofRead(r -> {
            BoardRow b = SnapshotReads.board(r, name);
            return r.idByLeafHash(b.id(), leafHash)
                    .orElseThrow(() -> ApiException.notFound("board '" + name + "' has no cast vote with leaf hash "
                            + Responses.b64(leafHash) + " (the leaf hash is SHA-256 of 0x00 and the canonical "
                            + "statement, RFC 6962 section 2.1; other kinds of record are proven by ID)"));
        });
        return inclusion(name, id, requestedSize);
    }

    /**
     * Consistency proof between two sizes; {@code to} null = the latest checkpoint. To the latest
     * checkpoint, what an observer asks for each new checkpoint, it is one autocommitted statement:
     * the tip and the tiles on the paths of leaf {@code from - 1} and of the tree's right edge
     * ({@link BoardTips#PROOF_TIP_SQL}, {@link org.electorallog.core.TileLayout#consistencyTiles}).
     */
    Responses.ConsistencyProof consistency(String name, long from, Long requestedTo) {
        if (requestedTo == null) {
            return reads.proofStatement(r -> {
                ProofTip t = SnapshotReads.proofTip(r, name, from - 1);
                CheckpointRow cp = t.tip().checkpoint(); // none: a 404 before any tile is read
                return consistencyProof(name, from, null, t.tip(), t.source(cp == null ? 0 : cp.size(), from - 1));
            });
        }
        return reads.proofRead(r -> {
            BoardTip tip = SnapshotReads.tip(r, name);
            return consistencyProof(
                    name,
                    from,
                    requestedTo,
                    tip,
                    fullTiles.over(name, r.tileSource(tip.board().id())));
        });
    }

    /** The consistency proof from {@code from} to {@code requestedTo} (null = the tip's checkpoint) from {@code tiles}. */
    private static Responses.ConsistencyProof consistencyProof(
            String name, long from, Long requestedTo, BoardTip tip, TileSource tiles) {
        CheckpointRow cp = tip.checkpoint();
        long to = sizeOrLatest(name, "to", requestedTo, cp, tip.size());
        if (from < 1 || from > to) {
            throw ApiException.badRequest("from must be between 1 and to (" + to + "), got " + from);
        }
        List<byte[]> hashes = hashes(List.of(new Range(0, from)), TreeMath.consistencyRanges(from, to), cp, to, tiles);
        return new Responses.ConsistencyProof(
                name,
                from,
                to,
                Responses.b64(hashes.get(1)),
                Responses.b64(hashes.get(0)),
                Responses.b64(hashes.subList(2, hashes.size())),
                noteAt(cp, to));
    }

    /**
     * The proof of record {@code id} for a client that trusts the given checkpoint (a signed note):
     * inclusion at the trusted size, or inclusion at the latest checkpoint plus consistency from the
     * trusted size. A checkpoint of another board, or whose root is not this board's root at its size,
     * is a 409 (divergence). One autocommitted statement: the tip and the tiles on the paths of the
     * record, of the trusted tree's last leaf and of the tree's right edge ({@link BoardTips#PROOF_TIP_SQL}).
     */
    Responses.TrustedProof fromTrusted(String name, long id, String trustedNote) {
        Checkpoint trusted;
        try {
            trusted = Checkpoint.parse(SignedNote.parse(trustedNote).text());
        } catch (ProofException e) {
            throw ApiException.badRequest(
                    "the body must be a signed checkpoint note (C2SP tlog-checkpoint): " + e.getMessage());
        }
        return reads.proofStatement(r -> {
            ProofTip t = SnapshotReads.proofTip(r, name, id, trusted.size() - 1);
            BoardTip tip = t.tip();
            BoardRow b = tip.board();
            if (!trusted.origin().equals(b.origin())) {
                throw ApiException.divergence("the checkpoint's origin '" + trusted.origin()
                        + "' is not this board's origin '" + b.origin() + "'");
            }
            CheckpointRow cp = tip.checkpoint();
            long treeSize = tip.size();
            if (trusted.size() < 1) {
                throw ApiException.badRequest("a trusted checkpoint of size 0 proves nothing");
            }
            long current = cp == null ? trusted.size() : Math.max(cp.size(), trusted.size());
            if (trusted.size() > treeSize) {
                throw ApiException.divergence("the checkpoint has size " + trusted.size() + " but this board has only "
                        + treeSize + " records");
            }
            if (id >= current) {
                throw ApiException.notFound("record " + id + " is not yet in a checkpoint (latest size "
                        + (cp == null ? 0 : cp.size()) + "); retry shortly");
            }
            RecordProof proof;
            try {
                proof = RecordProof.build(
                        id, trusted.size(), trusted.root(), current, t.source(current, id, trusted.size() - 1));
            } catch (LogDivergenceException e) {
                throw ApiException.divergence(e.getMessage());
            }
            return new Responses.TrustedProof(
                    name,
                    id,
                    proof.trustedSize(),
                    proof.size(),
                    Responses.b64(proof.leafHash()),
                    Responses.b64(proof.inclusion()),
                    Responses.b64(proof.consistency()),
                    noteAt(cp, proof.size()));
        });
    }

    /**
     * The C2SP tlog-proof bundle of a record: at the latest checkpoint of the board a witness quorum
     * cosigned when it covers the record; else through the heads board when a witnessed heads
     * checkpoint covers the record's board ({@link HeadLinkService#bundle}); else at the latest
     * checkpoint (docs/witnesses.md).
     */
    String bundle(String name, long id) {
        return reads.proofRead(r -> {
            BoardTip witnessed = SnapshotReads.witnessedTip(r, name);
            if (!covers(witnessed, id)) {
                Optional<String> chained = heads.bundle(r, witnessed, id);
                if (chained.isPresent()) {
                    return chained.get();
                }
            }
            BoardTip tip = covers(witnessed, id) ? witnessed : SnapshotReads.tip(r, name);
            CheckpointRow cp = tip.checkpoint();
            if (cp == null || id >= cp.size()) {
                throw ApiException.notFound(
                        "record " + id + " is not yet in a checkpoint of board '" + name + "'; retry shortly");
            }
            List<byte[]> proof = ProofBuilder.inclusion(
                    id, cp.size(), fullTiles.over(name, r.tileSource(tip.board().id())));
            return new TlogProof(ProofExtra.of(policyName, null), id, proof, tip.cosignedNote()).format();
        });
    }

    /** The requested tree size (400 unless 1..the board's size), or the latest checkpoint's when none was asked (404 without one). */
    private static long sizeOrLatest(String name, String parameter, Long requested, CheckpointRow cp, long treeSize) {
        if (requested == null) {
            if (cp == null) {
                throw ApiException.notFound("board '" + name + "' has no checkpoint yet");
            }
            return cp.size();
        }
        if (requested < 1 || requested > treeSize) {
            throw ApiException.badRequest(
                    parameter + " must be between 1 and the board's size " + treeSize + ", got " + requested);
        }
        return requested;
    }

    /**
     * The root of the tree at {@code size}, the hashes of {@code ranges}, then the proof's, in one
     * tile query. At the latest checkpoint's size the root is the checkpoint's own (the signed root
     * the client verifies against, built by the projector from these tiles): the tiles along the
     * tree's right edge that only the root needs, and the 200 or so SHA-256 compressions that fold
     * them, are not read (issue 17). At any other size it is folded from the tiles (RFC 9162 section
     * 2.1.1, MTH(D[0:size])).
     */
    private static List<byte[]> hashes(
            List<Range> ranges, List<Range> proof, CheckpointRow cp, long size, TileSource tiles) {
        boolean signedRoot = cp != null && cp.size() == size;
        List<Range> all = new ArrayList<>();
        if (!signedRoot) {
            all.add(new Range(0, size));
        }
        all.addAll(ranges);
        all.addAll(proof);
        List<byte[]> hashes = ProofBuilder.hashRanges(all, tiles);
        if (!signedRoot) {
            return hashes;
        }
        List<byte[]> out = new ArrayList<>(hashes.size() + 1);
        out.add(cp.root().clone());
        out.addAll(hashes);
        return out;
    }

    /** Whether the tip's checkpoint covers record {@code id}. */
    static boolean covers(BoardTip tip, long id) {
        return tip.checkpoint() != null && id < tip.checkpoint().size();
    }

    private static String noteAt(CheckpointRow cp, long size) {
        return cp != null && cp.size() == size ? cp.note() : null;
    }
}
