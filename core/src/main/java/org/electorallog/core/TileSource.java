package org.electorallog.core;

import java.util.Map;
import java.util.Set;

/**
 * Where a proof builder reads stored hash tiles from. It is asked once per proof for every tile the
 * proof needs, so a database can answer in one query. A returned tile may be wider than the tree
 * size being proved needs (a partial tile is a prefix of its later self); a missing tile is simply
 * absent from the map.
 */
@FunctionalInterface
public interface TileSource {
    Map<TileKey, byte[]> readTiles(Set<TileKey> keys);
}
