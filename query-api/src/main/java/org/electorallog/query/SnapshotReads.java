package org.electorallog.query;

import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardTip;
import org.electorallog.store.BoardTips;
import org.electorallog.store.LogReader;
import org.electorallog.store.Projection;
import org.electorallog.store.ProofTip;

/**
 * Runs each request's reads in one read-only REPEATABLE READ snapshot of the projection (the
 * store's {@link Projection#read}), and finds the board a request names (404 when there is none).
 * Three pools (decision 71, {@link ReadPools}): {@link #read} on the one whose statements are
 * planned for their parameters (listings, filters, counts, decision 20), {@link #proofRead} and
 * {@link #proofStatement} on the one whose statements keep their cached plans (checkpoints,
 * proofs, tiles: index probes by key, which a fresh plan would cost more than they do; and the
 * ballot locator, decision 73), and exports on a third of their own ({@link #exports}).
 */
final class SnapshotReads {
    private final Projection listings;
    private final Projection proofs;
    private final Projection exports;

    SnapshotReads(ReadPools pools) {
        this.listings = pools.listings();
        this.proofs = pools.proofs();
        this.exports = pools.exports();
    }

    /**
     * The exports' own pool, as many connections as exports may run at once (issue 41): an export
     * holds its connection while its client reads, and must not hold the listing pool's.
     */
    Projection exports() {
        return exports;
    }

    /** Listings, filters, counts: one snapshot, every statement planned for its parameters. */
    <T> T read(Projection.Reading<T> work) {
        return listings.read(work);
    }

    /** Checkpoint, proof and tile reads of more than one statement: one snapshot, cached plans. */
    <T> T proofRead(Projection.Reading<T> work) {
        return proofs.read(work);
    }

    /**
     * A checkpoint or proof read of one statement, autocommitted ({@link Projection#statement}): its
     * own snapshot, no transaction to roll back, cached plans.
     */
    <T> T proofStatement(Projection.Reading<T> work) {
        return proofs.statement(work);
    }

    static BoardRow board(LogReader r, String name) {
        return r.board(name).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest checkpoint, in one statement ({@link BoardTips#TIP_SQL}). */
    static BoardTip tip(LogReader r, String name) {
        return r.tip(name).orElseThrow(() -> noBoard(name));
    }

    /**
     * The board with its size and latest checkpoint, and the tiles on the paths of {@code leaves}
     * and of that checkpoint's right edge: what a proof at the checkpoint reads, in one statement
     * ({@link BoardTips#PROOF_TIP_SQL}).
     */
    static ProofTip proofTip(LogReader r, String name, long... leaves) {
        return r.proofTip(name, leaves).orElseThrow(() -> noBoard(name));
    }

    /** The board with its size and latest witnessed checkpoint, in one statement. */
    static BoardTip witnessedTip(LogReader r, String name) {
        return r.witnessedTip(name).orElseThrow(() -> noBoard(name));
    }

    static ApiException noBoard(String name) {
        return ApiException.notFound("there is no board named '" + name + "'; GET /boards lists them");
    }
}
