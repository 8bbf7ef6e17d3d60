package org.electorallog.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.TileLayout;
import org.electorallog.statement.CanonicalStatementReader;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardRow;
import org.electorallog.store.BoardState;
import org.electorallog.store.CounterKey;
import org.electorallog.store.Counters;
import org.electorallog.store.LogReader;

/**
 * The reads behind the public and voter endpoints other than proofs ({@link ProofService}): boards,
 * checkpoints, records, the ballot locator, counts, and the C2SP tlog-tiles hash tiles and entry
 * bundles. Each request runs in one snapshot.
 */
final class PublicReads {
    private final SnapshotReads reads;
    private final FullTiles fullTiles;

    PublicReads(SnapshotReads reads, FullTiles fullTiles) {
        this.reads = reads;
        this.fullTiles = fullTiles;
    }

    Responses.BoardList boards() {
        return reads.read(r -> {
            List<Responses.BoardSummary> out = new ArrayList<>();
            for (BoardState s : r.boards()) {
                out.add(Responses.BoardSummary.of(s));
            }
            return new Responses.BoardList(out);
        });
    }

    /** One board's state: size, root, and its seal once sealed. */
    Responses.BoardSummary board(String name) {
        return reads.read(r -> Responses.BoardSummary.of(r.state(name)
                .orElseThrow(() ->
                        ApiException.notFound("there is no board named '" + name + "'; GET /boards lists them"))));
    }

    /** The latest signed checkpoint note of a board, with the witness cosignatures it has so far. */
    String latestCheckpoint(String name) {
        return reads.proofStatement(r -> {
            String note = SnapshotReads.tip(r, name).cosignedNote();
            if (note == null) {
                throw ApiException.notFound("board '" + name + "' has no checkpoint yet");
            }
            return note;
        });
    }

    /** The board's history: its first checkpoint at or past {@code size}, with its cosignatures. */
    String checkpointFrom(String name, long size) {
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, name);
            return r.cosignedCheckpointFrom(b.id(), size)
                    .orElseThrow(() ->
                            ApiException.notFound("board '" + name + "' has no checkpoint at or past size " + size))
                    .note();
        });
    }

    /** The latest checkpoint a quorum of witnesses cosigned, with its cosignatures (store V13). */
    String latestWitnessedCheckpoint(String name) {
        return reads.proofStatement(r -> {
            String note = SnapshotReads.witnessedTip(r, name).cosignedNote();
            if (note == null) {
                throw ApiException.notFound("no checkpoint of board '" + name
                        + "' has been cosigned by the witness quorum yet (docs/witnesses.md); retry shortly");
            }
            return note;
        });
    }

    Responses.RecordBody record(String name, long id) {
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, name);
            return Responses.RecordBody.of(
                    name,
                    r.record(b.id(), id)
                            .orElseThrow(() -> ApiException.notFound("board '" + name + "' has no record " + id)),
                    r.openings(b.id(), id));
        });
    }

    /** Counts from the per-board counters, in constant time: all, with a user, by kind, by election, by election and kind. */
    Responses.Counts counts(String name) {
        return reads.read(r -> {
            BoardRow b = SnapshotReads.board(r, name);
            long total = 0;
            long withUser = 0;
            Map<String, Long> byElectionAll = new TreeMap<>();
            Map<String, Long> byKind = new TreeMap<>();
            Map<String, Map<String, Long>> byElection = new TreeMap<>();
            for (Counters.Row row : r.counters(b.id())) {
                CounterKey k = new CounterKey(row.kind(), row.electionId());
                if (k.isTotal()) {
                    total = row.n();
                } else if (k.kind() == CounterKey.ALL_KINDS) {
                    byElectionAll.put(k.electionId(), row.n());
                } else if (k.kind() == CounterKey.WITH_USER) {
                    withUser = row.n();
                } else if (k.electionId().equals(CounterKey.ALL_ELECTIONS)) {
                    byKind.put(StatementKinds.name(k.kind()), row.n());
                } else {
                    byElection
                            .computeIfAbsent(k.electionId(), e -> new TreeMap<>())
                            .put(StatementKinds.name(k.kind()), row.n());
                }
            }
            return new Responses.Counts(name, total, withUser, byKind, byElectionAll, byElection);
        });
    }

    /**
     * A C2SP tlog-tiles hash tile at the requested width (a partial tile is the prefix of the stored
     * one); 404 when the tree is not that wide yet.
     */
    byte[] tile(String name, int level, long index, int width) {
        byte[] full = fullTiles.get(name, level, index);
        if (full != null) {
            // a full tile never changes, and a partial one is a prefix of it: no database read
            return width == TileLayout.TILE_WIDTH ? full : Arrays.copyOf(full, width * Hashes.HASH_SIZE);
        }
        return reads.proofRead(r -> {
            BoardRow b = SnapshotReads.board(r, name);
            long size = r.size(b.id());
            if (TileLayout.width(level, index, size) < width) {
                throw ApiException.notFound("tile " + TileLayout.tilePath(level, index, width)
                        + " does not exist yet: the board has " + size + " records");
            }
            byte[] hashes = r.tile(b.id(), level, index)
                    .orElseThrow(() -> new IllegalStateException(
                            "tile " + level + "/" + index + " of board " + name + " is missing"));
            if (hashes.length < width * Hashes.HASH_SIZE) {
                throw new IllegalStateException("tile " + level + "/" + index + " of board " + name + " holds "
                        + hashes.length / 32 + " hashes, fewer than its size requires (" + width + "): run the audit");
            }
            fullTiles.offer(name, level, index, hashes);
            return width == TileLayout.TILE_WIDTH ? hashes : Arrays.copyOf(hashes, width * Hashes.HASH_SIZE);
        });
    }

    /**
     * An entry or signature bundle, and whether anyone may read it: only when no entry it covers
     * holds a personal value in the clear (the committed form, format 2, holds commitments in their
     * place: docs/personal-data.md "What each role sees"); otherwise observers only.
     */
    @SuppressWarnings("ArrayRecordComponent") // a response body, never compared
    record Bundle(byte[] body, boolean open) {}

    /** A C2SP tlog-tiles entry bundle: the canonical statements of records [256N, 256N + width). */
    Bundle entries(String name, long index, int width) {
        return reads.read(r -> {
            BoardRow b = bundleBoard(r, name, index, width, TileLayout.entriesPath(index, width));
            List<byte[]> entries = statements(r, b, index, width);
            return new Bundle(EntryBundle.encode(entries), !CanonicalStatementReader.anyHoldsPersonalValue(entries));
        });
    }

    /** The signature bundle beside entry bundle N of width W (core SignatureBundle), open as its entries are. */
    Bundle signatures(String name, long index, int width) {
        return reads.read(r -> {
            BoardRow b = bundleBoard(r, name, index, width, TileLayout.signaturesPath(index, width));
            List<SignatureBundle.Signatures> items = r.signatures(b.id(), index * 256, index * 256 + width);
            if (items.size() != width) {
                throw new IllegalStateException("board " + name + " is missing records in bundle " + index);
            }
            return new Bundle(
                    SignatureBundle.encode(items),
                    !CanonicalStatementReader.anyHoldsPersonalValue(statements(r, b, index, width)));
        });
    }

    private static List<byte[]> statements(LogReader r, BoardRow b, long index, int width) {
        List<byte[]> entries = new ArrayList<>(width);
        r.statements(b.id(), index * 256, index * 256 + width, (id, statement) -> entries.add(statement));
        if (entries.size() != width) {
            throw new IllegalStateException("board " + b.name() + " is missing records in bundle " + index);
        }
        return entries;
    }

    /** The board of a bundle of records [256N, 256N + W), which must all exist; 404 otherwise. */
    private static BoardRow bundleBoard(LogReader r, String name, long index, int width, String path) {
        BoardRow b = SnapshotReads.board(r, name);
        long size = r.size(b.id());
        if (TileLayout.width(0, index, size) < width) {
            throw ApiException.notFound(path + " does not exist yet: the board has " + size + " records");
        }
        return b;
    }
}
