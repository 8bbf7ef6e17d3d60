package org.electorallog.verifier;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.electorallog.core.Hashes;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TileTree;

/**
 * A board's Merkle tree rebuilt from its leaves in order (RFC 6962 section 2.1) and checked against
 * the hash tiles a source holds (C2SP tlog-tiles): each leaf against its place in the level-0 tile;
 * every tile the rebuild completes against the source's full tile; at the end the partial tiles at
 * the tree's size and the root; and, as the tree passes each checkpoint size given, that
 * checkpoint's root. {@link BoardVerifier} feeds it a board's published files; the audit (audit
 * {@code BoardAuditor}) the projection's records and stored tiles. Both report the same problems
 * ({@link Problem.Kind#LEAF}, {@code TILE}, {@code ROOT}, {@code CHECKPOINT}).
 */
public final class TreeCheck {
    /** A source's hash tiles. */
    @FunctionalInterface
    public interface Tiles {
        /**
         * The tile at {@code level} and {@code index} holding {@code width} hashes, or null when the
         * source has none.
         */
        byte[] tile(int level, long index, int width) throws IOException;
    }

    private final TileTree tree = TileTree.empty();
    private final Map<Long, byte[]> checkpointRoots;
    private final Map<TileKey, Tile> partial = new HashMap<>();
    private final Consumer<Problem> problems;

    /**
     * @param checkpointRoots the root of each checkpoint to meet, by its size: the tree's root must
     *                        be it once the tree has that many leaves
     */
    public TreeCheck(Map<Long, byte[]> checkpointRoots, Consumer<Problem> problems) {
        this.checkpointRoots = Map.copyOf(checkpointRoots);
        this.problems = problems;
        meet();
    }

    /** Leaves appended so far: the index of the next one. */
    public long size() {
        return tree.size();
    }

    /**
     * Appends the leaf hash of entry {@link #size()}, compared with its place in {@code level0}, the
     * source's level-0 tile holding it (null, or too short to hold it: not compared). Returns false
     * when it differs.
     */
    public boolean append(byte[] leaf, byte[] level0) {
        Problem differs = leaf(tree.size(), leaf, level0);
        if (differs != null) {
            problems.accept(differs);
        }
        tree.appendLeafHash(leaf);
        meet();
        return differs == null;
    }

    /**
     * Null when {@code leaf}, the leaf hash of entry {@code index}, is the hash at its place in
     * {@code level0}, the level-0 tile holding it (or when that tile is null or too short to hold
     * it); else the problem.
     */
    public static Problem leaf(long index, byte[] leaf, byte[] level0) {
        int at = (int) (index % TileLayout.TILE_WIDTH) * Hashes.HASH_SIZE;
        if (level0 == null
                || level0.length < at + Hashes.HASH_SIZE
                || Arrays.equals(leaf, 0, Hashes.HASH_SIZE, level0, at, at + Hashes.HASH_SIZE)) {
            return null;
        }
        return new Problem(
                Problem.Kind.LEAF,
                index,
                "entry " + index + " does not hash to its leaf in the level-0 tile: the statement was changed");
    }

    /** The checkpoint at the tree's size, if one was given, against the rebuilt root. */
    private void meet() {
        byte[] want = checkpointRoots.get(tree.size());
        if (want != null && !MessageDigest.isEqual(want, tree.root())) {
            problems.accept(new Problem(
                    Problem.Kind.CHECKPOINT,
                    tree.size(),
                    "the checkpoint of size " + tree.size() + " is not a prefix of this board: it does not have "
                            + "the root of the leaves at that size"));
        }
    }

    /**
     * Compares every tile the leaves appended since the last call completed with the source's
     * tile; the partial ones are kept for {@link #finish}.
     */
    public void compareFull(Tiles source) throws IOException {
        for (Tile rebuilt : tree.drainChangedTiles()) {
            if (rebuilt.isFull()) {
                partial.remove(rebuilt.key());
                compare(rebuilt, source);
            } else {
                partial.put(rebuilt.key(), rebuilt);
            }
        }
    }

    /**
     * The end of the leaves: the tiles still partial compared with the source's at their width, and
     * the rebuilt root with {@code root}, the one the source states for {@code size} leaves (not
     * compared when fewer leaves were appended).
     */
    public void finish(Tiles source, long size, byte[] root, String rootSaidBy) throws IOException {
        compareFull(source);
        for (Tile rebuilt : partial.values()) {
            compare(rebuilt, source);
        }
        partial.clear();
        if (tree.size() == size && !MessageDigest.isEqual(tree.root(), root)) {
            problems.accept(new Problem(
                    Problem.Kind.ROOT,
                    Problem.NONE,
                    "the tree rebuilt from the leaves has root "
                            + Base64.getEncoder().encodeToString(tree.root())
                            + " at size " + size + ", not " + rootSaidBy + "'s "
                            + Base64.getEncoder().encodeToString(root)));
        }
    }

    private void compare(Tile rebuilt, Tiles source) throws IOException {
        TileKey key = rebuilt.key();
        int width = rebuilt.width();
        String path = TileLayout.tilePath(key.level(), key.index(), width);
        long firstLeaf = key.index() * TileLayout.TILE_WIDTH << (TileLayout.TILE_HEIGHT * key.level());
        byte[] got = source.tile(key.level(), key.index(), width);
        if (got == null) {
            problems.accept(new Problem(Problem.Kind.TILE, firstLeaf, "tile " + path + " is missing"));
        } else if (!MessageDigest.isEqual(got, rebuilt.hashes())) {
            problems.accept(new Problem(
                    Problem.Kind.TILE, firstLeaf, "tile " + path + " differs from the tile rebuilt from the leaves"));
        }
    }
}
