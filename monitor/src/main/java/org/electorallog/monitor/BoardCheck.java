package org.electorallog.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;
import org.electorallog.statement.HeadsBoard;
import org.electorallog.verifier.EntryChecks;
import org.electorallog.verifier.LogEndpoint;

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

    /**
     * The board's state after the look (the previous one when nothing new was verified), what was
     * found, and what the look could not do that is no finding (entries not for this caller).
     */
    record Result(MonitorState.Board state, List<Finding> findings, List<String> notices, IOException entriesFailed) {
        Result(MonitorState.Board state, List<Finding> findings) {
            this(state, findings, List.of(), null);
        }
    }

    /** Findings of entries one look reports at most for a board; past them one more says how many were left. */
    static final int MAX_ENTRY_FINDINGS = 100;

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
        MonitorState.Board state = previous == null ? MonitorState.Board.firstSight(note, source.baseUrl()) : previous;
        // whether this API's tree was verified at the state's size in this look: its entries may be read
        boolean atVerifiedSize = previous == null;
        if (previous != null) {
            Checkpoint old = verified(previous);
            if (cp.size() == old.size()) {
                atVerifiedSize = MessageDigest.isEqual(cp.root(), old.root());
                if (!atVerifiedSize) {
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
                } catch (UncheckedIOException e) {
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
                }
                state = previous.withCheckpoint(note, source.baseUrl());
                atVerifiedSize = true;
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
        List<String> notices = new ArrayList<>();
        IOException entriesFailed = null;
        if (atVerifiedSize && state.entriesRead() < cp.size()) {
            try {
                state = entries(board, source, state, cp.size(), trust, before, note, out, notices);
            } catch (UncheckedIOException e) {
                // the API did not answer for the entries: what the look found so far stands (a sealed
                // board that grew among it), the reading stays, and the monitor counts it unreachable
                entriesFailed = e.getCause();
            }
        }
        return new Result(seal(board, source, state, statedSealed, out), out, notices, entriesFailed);
    }

    /**
     * Reads the entries from where the state's reading stopped up to the verified size {@code size}
     * (issue 61 item 3): every problem a finding (up to {@link #MAX_ENTRY_FINDINGS}); the reading
     * moves past what was read, whatever it held, and stops at a bundle the API withholds. A bundle
     * withheld with 404 is a finding (the checkpoint covers it); one refused to this caller (401,
     * 403) is a finding on the heads board (its entries hold no personal value) and on a board read
     * in the committed form before (every bundle after that is public), else a notice.
     */
    private static MonitorState.Board entries(
            String board,
            LogEndpoint source,
            MonitorState.Board state,
            long size,
            Trust trust,
            String before,
            String note,
            List<Finding> out,
            List<String> notices) {
        EntryLook.Look look =
                EntryLook.read(source, board, state.entriesRead(), size, trust.originPrefix(), trust.logKeys());
        List<String> problems = look.problems();
        for (int i = 0; i < problems.size() && i < MAX_ENTRY_FINDINGS; i++) {
            out.add(finding(
                    Finding.Kind.ENTRIES_DO_NOT_MATCH, board, source, problems.get(i), before, note, List.of()));
        }
        if (problems.size() > MAX_ENTRY_FINDINGS) {
            out.add(finding(
                    Finding.Kind.ENTRIES_DO_NOT_MATCH,
                    board,
                    source,
                    (problems.size() - MAX_ENTRY_FINDINGS) + " more problems in the entries from "
                            + state.entriesRead() + " to " + look.readTo() + " (the first "
                            + MAX_ENTRY_FINDINGS + " are reported one by one)",
                    before,
                    note,
                    List.of()));
        }
        long committedFrom = state.committedFrom() >= 0 ? state.committedFrom() : look.committedFrom();
        LogEndpoint.Answer withheld = look.withheld();
        if (withheld != null) {
            String what = "the entries from " + look.readTo() + " of the tree of size " + size + " (entry bundle "
                    + TileLayout.entriesPath(
                            look.readTo() / TileLayout.TILE_WIDTH,
                            TileLayout.width(0, look.readTo() / TileLayout.TILE_WIDTH, size))
                    + ")";
            if (!withheld.refused()) {
                out.add(finding(
                        Finding.Kind.ENTRIES_WITHHELD,
                        board,
                        source,
                        what + ": HTTP " + withheld.status() + ", though the signed checkpoint covers them",
                        before,
                        note,
                        List.of()));
            } else if (board.equals(HeadsBoard.NAME) || committedFrom >= 0) {
                out.add(finding(
                        Finding.Kind.ENTRIES_WITHHELD,
                        board,
                        source,
                        what + ": HTTP " + withheld.status() + " (not for this caller), though "
                                + (committedFrom >= 0
                                        ? "the board is in the committed form since entry " + committedFrom
                                                + ", so every entry after it is public"
                                        : "the heads board's entries hold no personal value")
                                + ": entries hidden from this caller, or a personal value in the clear",
                        before,
                        note,
                        List.of()));
            } else {
                // said once a run while the reading stays at the same entry (the text does not name the size)
                notices.add(
                        "monitor: the entries of board " + board + " on " + source.baseUrl() + " from entry "
                                + look.readTo() + " are not for this caller (HTTP " + withheld.status()
                                + "): their tiles are checked, their entries are not; an observer's token (--token) reads them from a query API");
            }
        }
        return state.withEntries(look.readTo(), committedFrom);
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
            return state.withSeal(statedSealed);
        }
        return state; // open, or sealed beyond what was verified so far: taken at a later look
    }

    private static String tilesProblem(Checkpoint cp, TileSource tiles) {
        try {
            byte[] root = ProofBuilder.rootAt(cp.size(), tiles);
            return MessageDigest.isEqual(root, cp.root())
                    ? null
                    : "the hash tiles give another root at size " + cp.size() + " than the checkpoint signs";
        } catch (UncheckedIOException e) {
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
