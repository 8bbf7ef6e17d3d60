package org.electorallog.query;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.TileSource;
import org.electorallog.core.TlogProof;
import org.electorallog.statement.HeadChain;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.store.BoardTip;
import org.electorallog.store.HeadLinks;
import org.electorallog.store.LogReader;

/**
 * A board's link to the witnessed heads board (statement {@link HeadsBoard}, docs/witnesses.md "One
 * witness round for every board"): the newest checkpoint C of the board whose heads entry E is in the
 * latest heads checkpoint H a witness quorum cosigned, with E and its inclusion proof in H. The voter
 * page reads it as JSON; tlog-proof bundles carry it ({@link HeadChain}).
 */
final class HeadLinkService {
    private final SnapshotReads reads;
    private final FullTiles fullTiles;
    /** Boards {@link #latest} found no link for, kept while the witnessed heads checkpoint stays the same. */
    private final HeadLinkCache<HeadsLink> latest = new HeadLinkCache<>();

    /** The name of the policy served beside the checkpoints, which each bundle carries ({@link ProofExtra}). */
    private final String policyName;

    HeadLinkService(SnapshotReads reads, FullTiles fullTiles, String policyName) {
        this.reads = reads;
        this.fullTiles = fullTiles;
        this.policyName = policyName;
    }

    /**
     * GET /boards/{board}/heads-link: the board's checkpoint C (signed by the log), its heads entry
     * (index and canonical bytes), the entry's RFC 9162 inclusion proof in H, and H with its witness
     * cosignatures.
     */
    record HeadsLink(
            String board,
            String checkpoint,
            long entryIndex,
            String entry,
            List<String> hashes,
            String headsCheckpoint) {}

    /**
     * The board's newest witnessed link (404 when the heads board has none for it yet). "None" is
     * looked up once per witnessed heads checkpoint ({@link HeadLinkCache}): finding none walks every
     * checkpoint of the board, and anonymous callers may ask as often as the rate limit lets them.
     */
    HeadsLink latest(String name) {
        Optional<HeadsLink> found = reads.proofRead(r -> {
            BoardTip board = SnapshotReads.tip(r, name);
            Optional<BoardTip> heads = r.witnessedTip(HeadsBoard.NAME);
            String headsNote = heads.map(BoardTip::cosignedNote).orElse("");
            Optional<HeadsLink> held = latest.get(name, headsNote);
            if (held != null) {
                return held;
            }
            Optional<HeadsLink> link = r.headLink(heads, board.board(), -1, headsTiles(r))
                    .map(l -> new HeadsLink(
                            name,
                            l.link().checkpoint().note(),
                            l.link().entryIndex(),
                            Responses.b64(l.link().entry()),
                            Responses.b64(l.entryProof().inclusion()),
                            l.entryProof().checkpointNote()));
            if (link.isEmpty()) {
                // only "none" is kept: a found link is re-read each time (its rows, not its place, are
                // what a voter checks), and its lookup stops at the board's newest checkpoints
                latest.put(name, headsNote, link);
            }
            return link;
        });
        return found.orElseThrow(() -> ApiException.notFound("board '" + name
                + "' has no checkpoint in a heads checkpoint the witnesses cosigned yet (is the log in HEADS "
                + "witness mode? GET /boards/" + name
                + "/checkpoint?witnessed=true serves a board witnessed on its own)"));
    }

    /**
     * The chained tlog-proof of record {@code id} of {@code board} ({@link HeadChain}), when a board
     * checkpoint covering it is in a witnessed heads checkpoint; empty otherwise.
     */
    Optional<String> bundle(LogReader r, BoardTip board, long id) {
        Optional<HeadLinks.Witnessed> link = link(r, board, id);
        if (link.isEmpty()) {
            return Optional.empty();
        }
        long size = link.get().link().checkpoint().size();
        List<byte[]> proof = ProofBuilder.inclusion(
                id,
                size,
                fullTiles.over(board.board().name(), r.tileSource(board.board().id())));
        TlogProof inBoard =
                new TlogProof(null, id, proof, link.get().link().checkpoint().note());
        return Optional.of(
                HeadChain.link(inBoard, link.get().link().entry(), link.get().entryProof(), policyName)
                        .format());
    }

    /** The link of a checkpoint covering record {@code id} (-1: any), with E's proof in the witnessed H. */
    private Optional<HeadLinks.Witnessed> link(LogReader r, BoardTip board, long id) {
        return r.headLink(board.board(), id, headsTiles(r));
    }

    /** The heads board's tiles in the snapshot of {@code r}, full ones from memory. */
    private Function<Short, TileSource> headsTiles(LogReader r) {
        return headsId -> fullTiles.over(HeadsBoard.NAME, r.tileSource(headsId));
    }
}
