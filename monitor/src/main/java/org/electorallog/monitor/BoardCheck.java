package org.electorallog.monitor;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileSource;

/**
 * One look at one board through one API, against what the monitor verified before: the
 * checkpoint's log signature and origin (C2SP signed-note, tlog-checkpoint), the cosignatures of the
 * configured witnesses it carries (tlog-cosignature), the hash tiles against its root (tlog-tiles),
 * its consistency with the verified checkpoint (RFC 9162 section 2.1.4, the proof built from the
 * tiles), the entries the board grew by where the caller may read them ({@link EntryLook}), and the
 * board's seal as the API states it. The first checkpoint of a board is trusted on
 * first use; after that the verified state only moves forward along consistent checkpoints.
 */
final class BoardCheck {
    private BoardCheck() {}

    /** The keys a monitor trusts and the origins it expects. */
    record Trust(List<NoteVerifier> logKeys, List<Cosigner.Verifier> witnesses, String originPrefix) {}

    /** The board's state after the look (the previous one when nothing new was verified) and what was found. */
    record Result(MonitorState.Board state, List<Finding> findings) {}

    /**
     * @param previous      the board's verified state, or null on first sight
     * @param note          the checkpoint the API serves now
     * @param statedSealed  the sealed size the API states, or -1
     * @param endpoints     the API of a URL (to read the verified tree from the API that served it)
     */
    static Result check(
            String board,
            LogEndpoint source,
            MonitorState.Board previous,
            String note,
            long statedSealed,
            Trust trust,
            Function<String, LogEndpoint> endpoints) {
        List<Finding> out = new ArrayList<>();
        String before = previous == null ? null : previous.checkpoint();
        Checkpoint cp;
        SignedNote signed;
        try {
            signed = SignedNote.parse(note);
            cp = Checkpoint.open(note, trust.logKeys());
        } catch (ProofException e) {
            out.add(finding(
                    Finding.Kind.BAD_SIGNATURE,
                    board,
                    source,
                    "the checkpoint does not verify with the log key: " + e.getMessage(),
                    before,
                    note,
                    List.of()));
            return new Result(previous, out);
        }
        if (!cp.origin().equals(trust.originPrefix() + board)) {
            out.add(finding(
                    Finding.Kind.BAD_SIGNATURE,
                    board,
                    source,
                    "the checkpoint's origin is '" + cp.origin() + "', not '" + trust.originPrefix() + board + "'",
                    before,
                    note,
                    List.of()));
            return new Result(previous, out);
        }
        for (Cosigner.Verifier w : trust.witnesses()) {
            if (signed.signatures().stream().anyMatch(s -> s.name().equals(w.name()))) {
                try {
                    w.verify(signed);
                } catch (ProofException e) {
                    out.add(finding(
                            Finding.Kind.BAD_COSIGNATURE,
                            board,
                            source,
                            "witness " + w.name() + ": " + e.getMessage(),
                            before,
                            note,
                            List.of()));
                }
            }
        }
        TileSource tiles = source.tiles(board, cp.size());
        String tileProblem = tilesProblem(cp, tiles);
        if (tileProblem != null) {
            out.add(finding(Finding.Kind.TILES_DO_NOT_MATCH, board, source, tileProblem, before, note, List.of()));
            return new Result(previous, out);
        }
        MonitorState.Board state = previous == null ? new MonitorState.Board(note, source.baseUrl(), -1) : previous;
        if (previous != null) {
            Checkpoint old = verified(previous);
            if (cp.size() == old.size()) {
                if (!MessageDigest.isEqual(cp.root(), old.root())) {
                    out.add(finding(
                            Finding.Kind.FORK,
                            board,
                            source,
                            "two checkpoints of size " + cp.size()
                                    + " with different roots: the log shows different trees (a split view)",
                            before,
                            note,
                            List.of()));
                }
            } else if (cp.size() > old.size()) {
                List<byte[]> proof;
                try {
                    proof = ProofBuilder.consistency(old.size(), cp.size(), tiles);
                } catch (java.io.UncheckedIOException e) {
                    throw e;
                } catch (RuntimeException e) {
                    out.add(finding(
                            Finding.Kind.TILES_DO_NOT_MATCH,
                            board,
                            source,
                            "the hash tiles of size " + cp.size() + " give no consistency proof from size " + old.size()
                                    + ": " + e.getMessage(),
                            before,
                            note,
                            List.of()));
                    return new Result(previous, out);
                }
                try {
                    ProofVerifier.verifyConsistency(old.size(), cp.size(), old.root(), cp.root(), proof);
                } catch (ProofException e) {
                    out.add(finding(
                            Finding.Kind.FORK,
                            board,
                            source,
                            "the tree of size " + cp.size() + " does not contain the verified tree of size "
                                    + old.size() + ": " + e.getMessage(),
                            before,
                            note,
                            b64(proof)));
                    return new Result(previous, out);
                }
                if (previous.sealed() && cp.size() > previous.sealedSize()) {
                    // whatever its new entries are, the board should not have grown; and an API that
                    // cannot serve them (leaves without records behind it) must not hide that
                    out.add(finding(
                            Finding.Kind.SEALED_BOARD_GREW,
                            board,
                            source,
                            "the board was sealed at size " + previous.sealedSize()
                                    + " and now has a checkpoint of size " + cp.size(),
                            before,
                            note,
                            b64(proof)));
                } else {
                    String entries = EntryLook.problem(source, board, old.size(), cp.size(), trust.originPrefix());
                    if (entries != null) {
                        out.add(finding(
                                Finding.Kind.ENTRIES_DO_NOT_MATCH, board, source, entries, before, note, List.of()));
                        return new Result(previous, out);
                    }
                }
                state = new MonitorState.Board(note, source.baseUrl(), previous.sealedSize());
            } else {
                // a replica behind the verified tree, or a fork below it: the verified tree says which
                TileSource verifiedTiles = endpoints.apply(previous.source()).tiles(board, old.size());
                byte[] rootThen;
                try {
                    rootThen = ProofBuilder.rootAt(cp.size(), verifiedTiles);
                } catch (RuntimeException e) {
                    return new Result(previous, out); // the verified tree's API cannot answer now: look again later
                }
                if (!MessageDigest.isEqual(rootThen, cp.root())) {
                    out.add(finding(
                            Finding.Kind.FORK,
                            board,
                            source,
                            "the checkpoint of size " + cp.size() + " is not a prefix of the verified tree of size "
                                    + old.size(),
                            before,
                            note,
                            b64(ProofBuilder.consistency(cp.size(), old.size(), verifiedTiles))));
                }
            }
        }
        return new Result(seal(board, source, state, statedSealed, out), out);
    }

    /** Takes the seal the API states once a verified checkpoint covers it; a withdrawn or moved seal is a finding. */
    private static MonitorState.Board seal(
            String board, LogEndpoint source, MonitorState.Board state, long statedSealed, List<Finding> out) {
        if (state.sealed()) {
            if (statedSealed != state.sealedSize()) {
                out.add(finding(
                        Finding.Kind.SEAL_MISMATCH,
                        board,
                        source,
                        "the board was sealed at size " + state.sealedSize() + "; the API now says "
                                + (statedSealed < 0 ? "it is open" : "size " + statedSealed),
                        state.checkpoint(),
                        null,
                        List.of()));
            }
            return state;
        }
        if (statedSealed >= 0 && statedSealed <= verified(state).size()) {
            String kind = statedSealed == 0 ? "none" : EntryLook.kind(source, board, statedSealed - 1, statedSealed);
            if (kind != null && !kind.equals(EntryChecks.SEALED)) {
                out.add(finding(
                        Finding.Kind.SEAL_MISMATCH,
                        board,
                        source,
                        "the API says the board was sealed at size " + statedSealed + ", and record "
                                + (statedSealed - 1) + " is " + kind + ", not a BOARD_SEALED statement",
                        state.checkpoint(),
                        null,
                        List.of()));
                return state;
            }
            return new MonitorState.Board(state.checkpoint(), state.source(), statedSealed);
        }
        return state; // open, or sealed beyond what was verified so far: taken at a later look
    }

    private static String tilesProblem(Checkpoint cp, TileSource tiles) {
        try {
            byte[] root = ProofBuilder.rootAt(cp.size(), tiles);
            return MessageDigest.isEqual(root, cp.root())
                    ? null
                    : "the hash tiles give another root at size " + cp.size() + " than the checkpoint signs";
        } catch (java.io.UncheckedIOException e) {
            throw e; // the API did not answer: not a finding about the log (Monitor counts it unreachable)
        } catch (RuntimeException e) { // missing, or not a tile (a short or oversized body)
            return "the hash tiles of size " + cp.size() + " cannot be read: " + e.getMessage();
        }
    }

    private static Checkpoint verified(MonitorState.Board state) {
        try {
            return Checkpoint.parse(SignedNote.parse(state.checkpoint()).text());
        } catch (ProofException e) {
            throw new IllegalStateException("the monitor's own state holds a checkpoint it cannot parse", e);
        }
    }

    private static Finding finding(
            Finding.Kind kind,
            String board,
            LogEndpoint source,
            String detail,
            String previous,
            String current,
            List<String> proof) {
        return new Finding(kind, board, source.baseUrl(), detail, previous, current, proof);
    }

    private static List<String> b64(List<byte[]> hashes) {
        return hashes.stream().map(h -> Base64.getEncoder().encodeToString(h)).toList();
    }
}
