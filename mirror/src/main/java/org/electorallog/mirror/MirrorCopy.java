package org.electorallog.mirror;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.ProofException;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileTree;

/**
 * One log's copy in a mirror, as files in the C2SP tlog-tiles layout under its directory (entry
 * bundles {@code tile/entries/...}, hash tiles {@code tile/<L>/...}, computed here from the entries),
 * with the <em>next entry</em> (tlog-mirror: the first entry not yet held) in the file {@code next}.
 * Files are written by rename as packages commit and made durable by {@link #sync} before
 * {@code next} moves on disk, so a restarted mirror starts from entries it really holds; its tree
 * is rebuilt from the right-edge tiles of that size. Not thread-safe: the mirror holds a lock.
 */
final class MirrorCopy {
    /** Threads that fsync a request's files together (I/O waits, not CPU). */
    private static final ExecutorService SYNCS = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "mirror-fsync");
        t.setDaemon(true);
        return t;
    });

    private final Path dir;
    private TileTree tree;
    /** The entries of the level-0 tile that {@code next} is in (next % 256 of them). */
    private final List<byte[]> edge = new ArrayList<>();
    /** Files written since the last {@link #sync}, to be fsynced before {@code next} is. */
    private final Set<Path> unsynced = new LinkedHashSet<>();

    private long durableNext;

    private MirrorCopy(Path dir) {
        this.dir = dir;
    }

    /** Opens (or starts) the copy in {@code dir}. */
    static MirrorCopy open(Path dir) throws IOException {
        Files.createDirectories(dir);
        MirrorCopy c = new MirrorCopy(dir);
        Path nextFile = dir.resolve("next");
        long next = Files.exists(nextFile)
                ? Long.parseLong(
                        Files.readString(nextFile, StandardCharsets.UTF_8).strip())
                : 0;
        Map<TileKey, byte[]> edges = new HashMap<>();
        for (TileTree.EdgeTile e : TileTree.edgeTiles(next)) {
            byte[] tile = c.file(TileLayout.tilePath(e.key().level(), e.key().index(), e.width()));
            if (tile == null) {
                throw new IOException("the mirror's copy in " + dir + " holds " + next + " entries but not the tile "
                        + TileLayout.tilePath(e.key().level(), e.key().index(), e.width()));
            }
            edges.put(e.key(), tile);
        }
        c.tree = TileTree.restore(next, edges);
        int width = (int) (next % TileLayout.TILE_WIDTH);
        if (width > 0) {
            byte[] bundle = c.file(TileLayout.entriesPath(next / TileLayout.TILE_WIDTH, width));
            if (bundle == null) {
                throw new IOException("the mirror's copy in " + dir + " holds " + next + " entries but not the bundle "
                        + TileLayout.entriesPath(next / TileLayout.TILE_WIDTH, width));
            }
            try {
                c.edge.addAll(EntryBundle.decode(bundle));
            } catch (ProofException e) {
                throw new IOException("the mirror's entry bundle in " + dir + " is damaged: " + e.getMessage(), e);
            }
        }
        c.durableNext = next;
        return c;
    }

    /** The next entry: how many entries the copy holds. */
    long next() {
        return tree.size();
    }

    /**
     * The leaf hashes of entries {@code [from, to)}, all in level-0 tile {@code from / 256} and
     * below {@link #next}.
     */
    byte[] leafHashes(long from, long to) throws IOException {
        long t = from / TileLayout.TILE_WIDTH;
        long base = t * TileLayout.TILE_WIDTH;
        List<byte[]> entries;
        if (t == next() / TileLayout.TILE_WIDTH) {
            entries = edge;
        } else {
            byte[] bundle = file(TileLayout.entriesPath(t, TileLayout.TILE_WIDTH));
            if (bundle == null) {
                throw new IOException("the mirror's copy lacks the full entry bundle " + t);
            }
            try {
                entries = EntryBundle.decode(bundle);
            } catch (ProofException e) {
                throw new IOException("the mirror's entry bundle " + t + " is damaged: " + e.getMessage(), e);
            }
        }
        byte[] out = new byte[(int) (to - from) * Hashes.HASH_SIZE];
        for (long i = from; i < to; i++) {
            byte[] h = Hashes.leafHash(entries.get((int) (i - base)));
            System.arraycopy(h, 0, out, (int) (i - from) * Hashes.HASH_SIZE, Hashes.HASH_SIZE);
        }
        return out;
    }

    /**
     * Appends the entries of an authenticated package that start at {@code start} (at or below
     * {@link #next}; those already held are skipped), then writes its entry bundle and every hash
     * tile that changed. Their leaf hashes are in {@code leafHashes} from hash {@code offset} on.
     */
    void append(long start, List<byte[]> entries, byte[] leafHashes, int offset) throws IOException {
        long next = next();
        long end = start + entries.size();
        if (end <= next) {
            return;
        }
        for (long i = next; i < end; i++) {
            int at = (int) (i - start);
            tree.appendLeafHash(Arrays.copyOfRange(
                    leafHashes, (offset + at) * Hashes.HASH_SIZE, (offset + at + 1) * Hashes.HASH_SIZE));
            edge.add(entries.get(at));
        }
        long size = tree.size();
        long t = (size - 1) / TileLayout.TILE_WIDTH;
        int width = (int) (size - t * TileLayout.TILE_WIDTH);
        write(TileLayout.entriesPath(t, width), EntryBundle.encode(edge));
        if (width == TileLayout.TILE_WIDTH) {
            edge.clear();
        }
        for (Tile tile : tree.drainChangedTiles()) {
            int w = tile.hashes().length / Hashes.HASH_SIZE;
            write(TileLayout.tilePath(tile.key().level(), tile.key().index(), w), tile.hashes());
        }
    }

    /**
     * Makes every file written since the last call durable, then records {@link #next} on disk:
     * only then may a checkpoint of this size be cosigned.
     */
    void sync() throws IOException {
        // the files' fsyncs at once: the file system commits its journal for all of them together
        List<Future<?>> forced = new ArrayList<>();
        for (Path p : unsynced) {
            forced.add(SYNCS.submit(() -> {
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
                    ch.force(true);
                }
                return null;
            }));
        }
        await(forced);
        Set<Path> dirs = new LinkedHashSet<>();
        unsynced.forEach(p -> dirs.add(p.getParent()));
        List<Future<?>> dirsForced = new ArrayList<>();
        for (Path d : dirs) {
            dirsForced.add(SYNCS.submit(() -> forceDirectory(d)));
        }
        await(dirsForced);
        unsynced.clear();
        if (durableNext != next()) {
            Durable.write(dir.resolve("next"), (next() + "\n").getBytes(StandardCharsets.UTF_8));
            durableNext = next();
        }
    }

    /**
     * Makes sure the right-edge files of a tree of {@code size} entries (at most {@link #next})
     * exist: a checkpoint of that size is served with them (C2SP tlog-tiles). A partial file is cut
     * from a wider one the copy holds.
     */
    void ensureEdge(long size) throws IOException {
        for (TileTree.EdgeTile e : TileTree.edgeTiles(size)) {
            String path = TileLayout.tilePath(e.key().level(), e.key().index(), e.width());
            if (file(path) == null) {
                byte[] wider = wider(e.key().level(), e.key().index(), e.width());
                write(path, Arrays.copyOf(wider, e.width() * Hashes.HASH_SIZE));
            }
        }
        int width = (int) (size % TileLayout.TILE_WIDTH);
        long t = size / TileLayout.TILE_WIDTH;
        if (width > 0 && file(TileLayout.entriesPath(t, width)) == null) {
            byte[] wider = wider(-1, t, width);
            try {
                write(
                        TileLayout.entriesPath(t, width),
                        EntryBundle.encode(EntryBundle.decode(wider).subList(0, width)));
            } catch (ProofException ex) {
                throw new IOException("the mirror's entry bundle " + t + " is damaged: " + ex.getMessage(), ex);
            }
        }
        sync();
    }

    /** A file of this tile (level -1: entry bundle) wider than {@code width}. */
    private byte[] wider(int level, long index, int width) throws IOException {
        for (int w = TileLayout.TILE_WIDTH; w > width; w--) {
            String path = level < 0 ? TileLayout.entriesPath(index, w) : TileLayout.tilePath(level, index, w);
            byte[] f = file(path);
            if (f != null) {
                return f;
            }
        }
        throw new IOException("the mirror's copy has no tile " + level + "/" + index + " of " + width + " or more");
    }

    /** A file of the copy by its tlog-tiles path, or null. */
    byte[] file(String path) throws IOException {
        Path f = dir.resolve(path);
        try {
            return Files.readAllBytes(f);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    private void write(String path, byte[] bytes) throws IOException {
        Path target = dir.resolve(path);
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        unsynced.add(target);
    }

    private static void await(List<Future<?>> futures) throws IOException {
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while making the mirror's files durable", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io
                        ? io
                        : new IOException("making the mirror's files durable failed", e.getCause());
            }
        }
    }

    private static void forceDirectory(Path d) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory for fsync; the renames are still atomic
        }
    }

    /** Write to a temporary file, fsync, atomic rename, directory fsync. */
    static final class Durable {
        private Durable() {}

        static void write(Path target, byte[] bytes) throws IOException {
            Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
            try (FileChannel ch = FileChannel.open(
                    tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(target.getParent());
        }
    }
}
