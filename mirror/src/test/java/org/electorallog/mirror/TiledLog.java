package org.electorallog.mirror;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.EntryBundle;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.Tile;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TilePath;
import org.electorallog.core.TileTree;
import org.electorallog.core.TiledFiles;

/** A log in memory for mirror tests, read as C2SP tlog-tiles files as of any of its sizes. */
final class TiledLog {
    final String origin;
    final NoteSigner signer;
    final List<byte[]> entries = new ArrayList<>();
    private final TileTree tree = TileTree.empty();
    /** The widest version of each tile. */
    private final Map<TileKey, byte[]> tiles = new HashMap<>();

    /** Entry i reads "{@code <kind>} i of {@code <origin>}": logs of another kind hold other entries. */
    private final String kind;

    TiledLog(String origin, NoteSigner signer) {
        this(origin, signer, "entry");
    }

    TiledLog(String origin, NoteSigner signer, String kind) {
        this.origin = origin;
        this.signer = signer;
        this.kind = kind;
    }

    TiledLog grow(long to) {
        while (tree.size() < to) {
            byte[] entry = (kind + " " + tree.size() + " of " + origin).getBytes(StandardCharsets.UTF_8);
            entries.add(entry);
            tree.appendLeafHash(Hashes.leafHash(entry));
        }
        for (Tile t : tree.drainChangedTiles()) {
            tiles.put(t.key(), t.hashes());
        }
        return this;
    }

    long size() {
        return tree.size();
    }

    String checkpoint(long size) {
        return new Checkpoint(origin, size, ProofBuilder.rootAt(size, keys -> tiles)).sign(signer);
    }

    /** The log's files as of {@code size}: its checkpoint then, and every tile and bundle that size has. */
    TiledFiles at(long size) {
        return path -> {
            if (path.equals("checkpoint")) {
                return checkpoint(size).getBytes(StandardCharsets.UTF_8);
            }
            return file(path, size);
        };
    }

    /** A tile or bundle file by its path, if a tree of {@code size} has it. */
    byte[] file(String path, long size) {
        TilePath p = TilePath.parse(path);
        if (p.entries()) {
            long from = p.index() * TileLayout.TILE_WIDTH;
            if (from + p.width() > size || (p.width() < TileLayout.TILE_WIDTH && from + p.width() != size)) {
                return null;
            }
            return EntryBundle.encode(entries.subList((int) from, (int) from + p.width()));
        }
        int width = TileLayout.width(p.level(), p.index(), size);
        byte[] tile = tiles.get(new TileKey(p.level(), p.index()));
        if (tile == null || width != p.width()) {
            return null;
        }
        return Arrays.copyOf(tile, width * Hashes.HASH_SIZE);
    }
}
