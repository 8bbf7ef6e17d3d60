package org.electorallog.perf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.core.TileLayout;
import org.electorallog.query.FullTiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 45 item 4, the tile figure: full hash tiles per second and their latency through the query
 * API (served from memory, decision 113) against nginx serving the same tiles from the published
 * directory ({@code publish-tiles}, {@code infra/deploy/nginx-tiles.conf}), at several connection
 * counts, the targets alternated, each warmed first; the load generator shares the machine.
 */
@Command(
        name = "tiles",
        description = "Full tiles per second through the query API (from memory) against nginx serving the "
                + "published directory, at 1, 16 and 64 connections")
final class TilesCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @CommandLine.Mixin
    ApiAgainstNginx.Options load;

    @Option(
            names = "--tiles",
            defaultValue = "4096",
            description = "distinct full level-0 tiles requested (within the API's memory); default ${DEFAULT-VALUE}")
    int tiles;

    @Option(
            names = "--api-full-tiles",
            description = "full tiles the query API keeps in memory (0: every tile from PostgreSQL, as before "
                    + "decision 113); default the API's (ELECTORAL_LOG_FULL_TILES' default)")
    Integer apiFullTiles;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            int apiTiles = apiFullTiles == null ? FullTiles.DEFAULT_CAPACITY : apiFullTiles;
            env.fullTiles(apiTiles);
            String name = load.board != null ? load.board : env.largestBoard();
            long size = env.sizes().get(name);
            int n = (int) Math.min(tiles, TileLayout.width(0, 0, size) == 256 ? size / 256 : 0);
            if (n < 1) {
                throw new IllegalArgumentException("board " + name + " has no full tile");
            }
            long t0 = System.nanoTime();
            Path published = ApiAgainstNginx.publish(env, dirs.work, name);
            double publishSeconds = (System.nanoTime() - t0) / 1e9;
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                paths.add("/" + TileLayout.tilePath(0, i, 256));
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", name);
            r.put("board_size", size);
            r.put("distinct_tiles", n);
            r.put("api_full_tiles", apiTiles);
            r.put("publish_seconds", Latencies.round(publishSeconds));
            List<List<String>> each = paths.stream().map(List::of).toList();
            r.put(
                    "runs",
                    ApiAgainstNginx.run(
                            "tiles", env, dirs.work, published, name, load, each, each, TileLoad.FULL_TILE));
            r.putAll(env.describe());
            dirs.write(
                    "tiles-" + name + "-" + PerfCommand.label(size) + (apiTiles == 0 ? "-api-from-postgresql" : ""), r);
        }
        return 0;
    }
}
