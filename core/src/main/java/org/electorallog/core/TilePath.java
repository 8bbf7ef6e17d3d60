package org.electorallog.core;

/**
 * A parsed C2SP tlog-tiles resource path: a hash tile {@code tile/<L>/<N>[.p/<W>]} or an entry
 * bundle {@code tile/entries/<N>[.p/<W>]} (then {@code level} is -1). Width 256 means full.
 */
public record TilePath(boolean entries, int level, long index, int width) {
    /** The highest tile level a tree of 2^63 leaves can need. */
    public static final int MAX_LEVEL = 7;

    /** Parses a path strictly; anything else is an IllegalArgumentException saying what is wrong. */
    public static TilePath parse(String path) {
        if (!path.startsWith("tile/")) {
            throw new IllegalArgumentException("tile path must start with tile/: '" + path + "'");
        }
        String rest = path.substring("tile/".length());
        boolean entries = rest.startsWith("entries/");
        int level = -1;
        if (entries) {
            rest = rest.substring("entries/".length());
        } else {
            int slash = rest.indexOf('/');
            if (slash <= 0) {
                throw new IllegalArgumentException("tile path needs a level and an index: '" + path + "'");
            }
            String l = rest.substring(0, slash);
            if (!l.matches("[0-9]")) {
                throw new IllegalArgumentException(
                        "tile level must be one digit 0.." + MAX_LEVEL + ", got '" + l + "'");
            }
            level = Integer.parseInt(l);
            if (level > MAX_LEVEL) {
                throw new IllegalArgumentException("tile level must be 0.." + MAX_LEVEL + ", got " + level);
            }
            rest = rest.substring(slash + 1);
        }
        int width = TileLayout.TILE_WIDTH;
        int partial = rest.indexOf(".p/");
        if (partial >= 0) {
            width = TileLayout.decodeWidth(rest.substring(partial + 3));
            rest = rest.substring(0, partial);
        }
        long index = TileLayout.decodeIndex(rest);
        return new TilePath(entries, level, index, width);
    }

    @Override
    public String toString() {
        return entries ? TileLayout.entriesPath(index, width) : TileLayout.tilePath(level, index, width);
    }
}
