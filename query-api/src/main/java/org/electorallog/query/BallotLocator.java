package org.electorallog.query;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofExtra;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.Timestamps;
import org.electorallog.core.TlogProof;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardTip;
import org.electorallog.store.Records;

/** The ballot locator: a voter's own cast votes with their C2SP tlog-proof bundles. */
final class BallotLocator {
    private final SnapshotReads reads;
    private final HeadLinkService heads;

    /** The name of the policy served beside the checkpoints, which each bundle carries ({@link ProofExtra}). */
    private final String policyName;

    BallotLocator(SnapshotReads reads, HeadLinkService heads, String policyName) {
        this.reads = reads;
        this.heads = heads;
        this.policyName = policyName;
    }

    /**
     * The ballot locator: a voter's cast votes in an election, newest first, {@code limit}
     * per page before {@code beforeId} (null = from the newest), a ballot ID narrowing them further;
     * each vote already in a checkpoint with its C2SP tlog-proof bundle, built on the latest
     * witnessed checkpoint that covers it, else through the witnessed heads board (HEADS witness mode,
     * {@link HeadLinkService#bundle}), else on the latest checkpoint. One snapshot: the listing
     * and its bundles belong to one tree; the witnessed tip names the board, so the locator is the tip,
     * the ballots, the latest tip only when a vote is past the witnessed one, and one tile query for
     * every bundle of the page (the paths of the votes and the checkpoints' right edges,
     * {@link TileLayout#pathTiles}). It runs on the proof pool, with cached plans: the ballots'
     * statement is one voter's rows by the user index whatever the values (decision 73).
     */
    List<Responses.Ballot> ballots(
            String name, String userId, String electionId, String ballotId, Long beforeId, int limit) {
        return reads.proofRead(r -> {
            BoardTip witnessed = SnapshotReads.witnessedTip(r, name);
            List<Records.Ballot> votes = r.ballots(
                    witnessed.board().id(),
                    StatementKinds.CAST_VOTE,
                    userId,
                    electionId,
                    ballotId,
                    beforeId == null ? Long.MAX_VALUE : beforeId,
                    limit);
            BoardTip latest = null;
            List<BoardTip> tips = new ArrayList<>(votes.size());
            Set<TileKey> keys = new LinkedHashSet<>();
            for (Records.Ballot v : votes) {
                BoardTip tip = witnessed;
                if (!ProofService.covers(witnessed, v.id())) {
                    latest = latest == null ? SnapshotReads.tip(r, name) : latest;
                    tip = latest;
                }
                tips.add(tip);
                if (ProofService.covers(tip, v.id())) {
                    keys.addAll(
                            TileLayout.inclusionTiles(v.id(), tip.checkpoint().size()));
                }
            }
            Map<TileKey, byte[]> tiles =
                    keys.isEmpty() ? Map.of() : r.tiles(witnessed.board().id(), keys);
            List<Responses.Ballot> out = new ArrayList<>(votes.size());
            for (int i = 0; i < votes.size(); i++) {
                Records.Ballot v = votes.get(i);
                BoardTip tip = tips.get(i);
                String chained = ProofService.covers(witnessed, v.id())
                        ? null
                        : heads.bundle(r, witnessed, v.id()).orElse(null);
                String bundle = chained != null
                        ? chained
                        : !ProofService.covers(tip, v.id())
                                ? null
                                : new TlogProof(
                                                ProofExtra.of(policyName, null),
                                                v.id(),
                                                ProofBuilder.inclusion(
                                                        v.id(), tip.checkpoint().size(), k -> tiles),
                                                tip.cosignedNote())
                                        .format();
                out.add(new Responses.Ballot(
                        v.id(),
                        Timestamps.rfc3339(v.statementTime()),
                        StatementKinds.name(StatementKinds.CAST_VOTE),
                        v.ballotId(),
                        bundle));
            }
            return out;
        });
    }
}
