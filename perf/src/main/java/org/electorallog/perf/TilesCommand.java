package org.electorallog.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.core.TileLayout;
import org.electorallog.infra.NginxServer;
import org.electorallog.publisher.Publisher;
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

    @Option(names = "--board", description = "the board (default: the largest perf-N board)")
    String board;

    @Option(
            names = "--tiles",
            defaultValue = "4096",
            description = "distinct full level-0 tiles requested (within the API's memory); default ${DEFAULT-VALUE}")
    int tiles;

    @Option(names = "--connections", defaultValue = "1,16,64", split = ",", description = "default ${DEFAULT-VALUE}")
    List<Integer> connections;

    @Option(names = "--seconds", defaultValue = "10", description = "per run; default ${DEFAULT-VALUE}")
    int seconds;

    @Option(
            names = "--api-full-tiles",
            defaultValue = "" + org.electorallog.query.FullTiles.DEFAULT_CAPACITY,
            description = "full tiles the query API keeps in memory (0: every tile from PostgreSQL, as before "
                    + "decision 113); default ${DEFAULT-VALUE}")
    int apiFullTiles;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            env.fullTiles(apiFullTiles);
            String name = board != null ? board : env.largestBoard();
            long size = env.sizes().get(name);
            int n = (int) Math.min(tiles, TileLayout.width(0, 0, size) == 256 ? size / 256 : 0);
            if (n < 1) {
                throw new IllegalArgumentException("board " + name + " has no full tile");
            }
            Path published = dirs.work.resolve("published");
            var a = env.stack.database();
            long t0 = System.nanoTime();
            try (Publisher p = Publisher.open(new Publisher.Settings(
                    a.jdbcUrl(), a.user(), a.password(), published, Duration.ofSeconds(1), false))) {
                p.publish(name);
            }
            double publishSeconds = (System.nanoTime() - t0) / 1e9;
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                paths.add("/" + TileLayout.tilePath(0, i, 256));
            }
            String api = env.api().baseUrl() + "/boards/" + name;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", name);
            r.put("board_size", size);
            r.put("distinct_tiles", n);
            r.put("api_full_tiles", apiFullTiles);
            r.put("publish_seconds", Latencies.round(publishSeconds));
            try (NginxServer nginx = NginxServer.start(
                    Path.of("infra/deploy/nginx-tiles.conf"), published, dirs.work.resolve("nginx"))) {
                String files = nginx.baseUrl() + "/" + name;
                TileLoad.warm(api, paths);
                TileLoad.warm(files, paths);
                List<Map<String, Object>> runs = new ArrayList<>();
                for (int c : connections) {
                    for (String target : List.of("api", "nginx")) {
                        TileLoad.Result x = TileLoad.run(target.equals("api") ? api : files, paths, c, seconds);
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("target", target);
                        m.put("connections", c);
                        m.putAll(x.asMap());
                        runs.add(m);
                        System.err.printf(
                                "tiles %s, %d connection(s): %,.0f/s, p50 %.2f ms, p99 %.2f ms, errors %d%n",
                                target, c, x.perSecond(), x.p50Ms(), x.p99Ms(), x.errors());
                    }
                }
                r.put("runs", runs);
            }
            r.putAll(env.describe());
            dirs.write(
                    "tiles-" + name + "-" + PerfCommand.label(size) + (apiFullTiles == 0 ? "-api-from-postgresql" : ""),
                    r);
        }
        return 0;
    }
}
