package org.electorallog.mirror;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.ProofException;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SubtreeProof;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileSource;
import org.electorallog.core.TiledFiles;
import org.electorallog.core.WitnessRequest;

/**
 * The client side of C2SP tlog-mirror: pushes a log's latest checkpoint and the entries a mirror
 * lacks, read from the log's files in the tlog-tiles layout (a query API, a URL, a directory):
 * {@code add-checkpoint} with the consistency proof from the mirror's pending size (learnt from its
 * 409), then {@code add-entries} in requests of at most 32 packages, each package with its subtree
 * consistency proof, gzip-compressed, resuming from the next entry each 202 or 409 gives, until the
 * mirror answers 200 with its cosignatures.
 */
public final class MirrorClient {
    /** Rounds of 409 a push follows before it gives up (the mirror's state moving under it). */
    private static final int MAX_CONFLICTS = 8;

    private final HttpClient http;
    private final String prefix;

    /** A client of the mirror whose submission prefix is {@code prefix}. */
    public MirrorClient(String prefix) {
        this.prefix = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * Whether the server at this prefix mirrors {@code origin}: an {@code add-entries} request with no
     * packages is answered 404 by a witness (no such endpoint) and by a mirror that does not follow
     * the log, and otherwise (200, 409, 422) by a mirror of it. Nothing is stored by asking.
     */
    public boolean mirrors(String origin) throws IOException {
        byte[] probe = AddEntries.request(new AddEntries.Header(origin, 0, 0), List.of());
        return post("/add-entries", probe, false).statusCode() != 404;
    }

    /** What a push did: the size the mirror now holds, the entries sent, and its cosignature lines. */
    public record Pushed(String origin, long size, long entriesSent, String cosignatures) {}

    /**
     * Pushes the log in {@code files} to the mirror: its checkpoint, then every entry the mirror
     * lacks up to that size. Returns when the mirror has cosigned that checkpoint.
     */
    public Pushed push(TiledFiles files) throws IOException {
        byte[] noteBytes = files.get("checkpoint");
        if (noteBytes == null) {
            throw new IOException("the log has no checkpoint to push");
        }
        String note = new String(noteBytes, StandardCharsets.UTF_8);
        Checkpoint cp;
        try {
            cp = Checkpoint.parse(SignedNote.parse(note).text());
        } catch (ProofException e) {
            throw new IOException("the log's checkpoint cannot be read: " + e.getMessage(), e);
        }
        Map<String, byte[]> cache = new HashMap<>();
        TiledFiles cached = path -> {
            // full hash tiles never change: keep them for the proofs of the next packages (a few MB
            // for 20M entries); entry bundles are read once each and not kept
            byte[] b = cache.get(path);
            if (b == null) {
                b = files.get(path);
                if (b != null && !path.contains(".p/") && !path.startsWith("tile/entries/")) {
                    cache.put(path, b);
                }
            }
            return b;
        };
        TileSource tiles = cached.tilesAt(cp.size());
        addCheckpoint(note, cp, tiles);
        return addEntries(cp, cached, tiles);
    }

    private void addCheckpoint(String note, Checkpoint cp, TileSource tiles) throws IOException {
        long old = 0;
        for (int round = 0; round < 3; round++) {
            List<byte[]> proof = old == 0 || old == cp.size() ? List.of() : proof(old, cp.size(), tiles);
            HttpResponse<String> r = post(
                    "/add-checkpoint",
                    new WitnessRequest(old, proof, note).format().getBytes(StandardCharsets.UTF_8),
                    false);
            if (r.statusCode() == 200) {
                return;
            }
            if (r.statusCode() != 409) {
                throw new IOException("the mirror refused the checkpoint of size " + cp.size() + ": " + r.statusCode()
                        + " " + r.body().strip());
            }
            long size = Long.parseLong(r.body().strip());
            if (size > cp.size()) {
                throw new IOException("the mirror's pending checkpoint (" + size + ") is past the log's (" + cp.size()
                        + "): push from a newer copy of the log");
            }
            old = size;
        }
        throw new IOException("the mirror's pending size kept moving under add-checkpoint");
    }

    private static List<byte[]> proof(long old, long size, TileSource tiles) throws IOException {
        try {
            return ProofBuilder.consistency(old, size, tiles);
        } catch (ProofBuilder.MissingTileException e) {
            throw new IOException("the log lacks a tile the consistency proof needs: " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** One add-entries request ready to send: where it starts, its gzipped body and the entries it carries. */
    private static final class Upload {
        private final long end;
        private final byte[] gzipped;
        private final long entries;

        Upload(long end, byte[] gzipped, long entries) {
            this.end = end;
            this.gzipped = gzipped;
            this.entries = entries;
        }

        long end() {
            return end;
        }

        byte[] gzipped() {
            return gzipped;
        }

        long entries() {
            return entries;
        }
    }

    /**
     * The requests from the mirror's next entry to the checkpoint's size. The next request is built
     * (entries read, proofs computed, compressed) while the mirror checks the one sent, from where
     * the sent one ends; it is used when the mirror's answer says that is its next entry.
     */
    private Pushed addEntries(Checkpoint cp, TiledFiles files, TileSource tiles) throws IOException {
        ExecutorService ahead = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mirror-push-ahead");
            t.setDaemon(true);
            return t;
        });
        try {
            // a first request with no packages asks the mirror for its next entry
            Upload current = upload(cp, files, tiles, cp.size());
            long sent = 0;
            int conflicts = 0;
            while (true) {
                Upload sending = current;
                Future<Upload> next = sending.end() < cp.size() && sending.entries() > 0
                        ? ahead.submit(() -> upload(cp, files, tiles, sending.end()))
                        : null;
                HttpResponse<String> r = post("/add-entries", sending.gzipped(), true);
                long from;
                switch (r.statusCode()) {
                    case 200:
                        if (next != null) {
                            next.cancel(true);
                        }
                        return new Pushed(cp.origin(), cp.size(), sent + sending.entries(), r.body());
                    case 202:
                        sent += sending.entries();
                        from = AddEntries.Info.parse(r.body()).nextEntry();
                        break;
                    case 409:
                        if (++conflicts > MAX_CONFLICTS) {
                            throw new IOException("the mirror kept answering 409 to add-entries: "
                                    + r.body().strip());
                        }
                        from = AddEntries.Info.parse(r.body()).nextEntry();
                        if (from > cp.size()) {
                            throw new IOException("the mirror holds " + from + " entries, past the log's " + cp.size()
                                    + " it was given");
                        }
                        break;
                    default:
                        throw new IOException("the mirror refused add-entries: " + r.statusCode() + " "
                                + r.body().strip());
                }
                current = next != null && from == sending.end() ? await(next) : upload(cp, files, tiles, from);
                if (next != null && from != sending.end()) {
                    next.cancel(true);
                }
            }
        } finally {
            ahead.shutdownNow();
        }
    }

    private static Upload await(Future<Upload> next) throws IOException {
        try {
            return next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while preparing the next add-entries request", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io
                    ? io
                    : new IOException("preparing the next add-entries request failed", e.getCause());
        }
    }

    /** The request of up to 32 packages from {@code start}, compressed. */
    private static Upload upload(Checkpoint cp, TiledFiles files, TileSource tiles, long start) throws IOException {
        List<AddEntries.Package> packages = new ArrayList<>();
        List<long[]> canonical = AddEntries.canonical(start, cp.size());
        List<long[]> sent = canonical.subList(0, Math.min(canonical.size(), AddEntries.PACKAGES_PER_REQUEST));
        for (long[] p : sent) {
            packages.add(pack(files, tiles, cp.size(), p));
        }
        byte[] body = AddEntries.request(new AddEntries.Header(cp.origin(), start, cp.size()), packages);
        long end = sent.isEmpty() ? start : sent.get(sent.size() - 1)[2];
        return new Upload(end, gzip(body), count(packages));
    }

    private static long count(List<AddEntries.Package> packages) {
        return packages.stream().mapToLong(p -> p.entries().size()).sum();
    }

    /** Package {@code [p[1], p[2])} of subtree {@code [p[0], p[2])}: its entries and its proof in the tree of {@code size}. */
    private static AddEntries.Package pack(TiledFiles files, TileSource tiles, long size, long[] p) throws IOException {
        long t = p[0] / TileLayout.TILE_WIDTH;
        int width = TileLayout.width(0, t, size);
        byte[] bundle = files.get(TileLayout.entriesPath(t, width));
        if (bundle == null && width < TileLayout.TILE_WIDTH) {
            bundle = files.get(TileLayout.entriesPath(t, TileLayout.TILE_WIDTH));
        }
        if (bundle == null) {
            throw new IOException("the log does not serve the entry bundle " + TileLayout.entriesPath(t, width)
                    + " (entry bundles may need an observer's token)");
        }
        List<byte[]> entries;
        try {
            entries = EntryBundle.decode(bundle);
        } catch (ProofException e) {
            throw new IOException("the log's entry bundle " + t + " cannot be read: " + e.getMessage(), e);
        }
        if (entries.size() < p[2] - p[0]) {
            throw new IOException(
                    "the log's entry bundle " + t + " holds " + entries.size() + " entries, not " + (p[2] - p[0]));
        }
        List<byte[]> proof;
        try {
            proof = ProofBuilder.hashRanges(SubtreeProof.ranges(p[0], p[2], size), tiles);
        } catch (ProofBuilder.MissingTileException e) {
            throw new IOException("the log lacks a tile a package's proof needs: " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new AddEntries.Package(
                p[0], p[1], p[2], entries.subList((int) (p[1] - p[0]), (int) (p[2] - p[0])), proof);
    }

    /** The body gzipped at the fastest level: entries are checked and stored at the mirror's pace, not the compressor's. */
    private static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream(body.length / 2 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(zipped) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            z.write(body);
        }
        return zipped.toByteArray();
    }

    /** POSTs {@code body} (already gzipped when {@code gzipped}). */
    private HttpResponse<String> post(String path, byte[] body, boolean gzipped) throws IOException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(prefix + path)).timeout(Duration.ofMinutes(2));
        if (gzipped) {
            b.header("Content-Encoding", "gzip").header("Content-Type", "application/octet-stream");
        }
        try {
            return http.send(
                    b.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while talking to the mirror " + prefix, e);
        }
    }
}
