package org.electorallog.verifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignatureBundle;
import org.electorallog.core.TileLayout;

/**
 * What {@link BoardVerifier} reads for each level-0 tile index (the hash tile, its entry bundle and
 * the signature bundle beside it), fetched a few indexes ahead on a small pool, so that the
 * verifier hashes one tile while the source answers for the next ones instead of waiting on each
 * request in turn; the sender signatures are verified there too, on the pool's threads, since they
 * cost more than everything else. Results are handed out in index order.
 */
final class Level0Prefetch implements AutoCloseable {
    /**
     * The three files of level-0 index N at the checkpoint's width, any of them null (absent or
     * refused), and whether each entry's sender signature verified (null when either bundle cannot
     * be read as one of this width: the verifier then reports why).
     */
    @SuppressWarnings("ArrayRecordComponent") // bytes handed over once, never compared
    record Files(byte[] tile, byte[] entries, byte[] signatures, boolean[] senderVerified) {}

    private final TlogFiles files;
    private final long size;
    private final int ahead;
    private final ExecutorService pool;
    private final ArrayDeque<CompletableFuture<Files>> queue = new ArrayDeque<>();
    private long next;

    /**
     * @param size    the checkpoint's tree size (the widths come from it)
     * @param threads requests in flight at most
     */
    Level0Prefetch(TlogFiles files, long size, int threads) {
        this.files = files;
        this.size = size;
        this.ahead = threads * 2;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "verify-board-fetch");
            t.setDaemon(true);
            return t;
        });
    }

    /** The files of the next index, in order from 0; I/O failures of the source are thrown. */
    Files next() throws IOException {
        long tiles = (size + TileLayout.TILE_WIDTH - 1) / TileLayout.TILE_WIDTH;
        while (queue.size() < ahead && next < tiles) {
            long t = next++;
            queue.add(CompletableFuture.supplyAsync(() -> fetch(t), pool));
        }
        try {
            return queue.remove().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the board", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private Files fetch(long t) {
        int width = TileLayout.width(0, t, size);
        try {
            byte[] entries = files.get(TileLayout.entriesPath(t, width));
            byte[] signatures = entries == null ? null : files.get(TileLayout.signaturesPath(t, width));
            return new Files(
                    files.get(TileLayout.tilePath(0, t, width)),
                    entries,
                    signatures,
                    senderVerified(entries, signatures, width));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean[] senderVerified(byte[] entries, byte[] signatures, int width) {
        if (entries == null || signatures == null) {
            return null;
        }
        try {
            List<byte[]> e = EntryBundle.decode(entries);
            List<SignatureBundle.Signatures> s = SignatureBundle.decode(signatures);
            return e.size() == width && s.size() == width ? EntryChecks.senderSignatures(e, s) : null;
        } catch (ProofException | IllegalArgumentException ex) {
            return null;
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
