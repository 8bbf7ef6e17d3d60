package org.electorallog.perf;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.electorallog.infra.NginxServer;
import org.electorallog.publisher.Publisher;
import picocli.CommandLine.Option;

/**
 * What {@code perf tiles} and {@code perf proofs} share (issue 45 item 4): a board published with
 * {@code publish-tiles} into {@code <work>/published}, served by nginx with the shipped
 * {@code infra/deploy/nginx-tiles.conf}, and the same operations run through the query API and
 * through nginx at each connection count, the two targets one after the other, both warmed first
 * ({@link TileLoad}).
 */
final class ApiAgainstNginx {
    /** The options both commands take. */
    static final class Options {
        @Option(names = "--board", description = "the board (default: the largest perf-N board)")
        String board;

        @Option(
                names = "--connections",
                defaultValue = "1,16,64",
                split = ",",
                description = "default ${DEFAULT-VALUE}")
        List<Integer> connections;

        @Option(names = "--seconds", defaultValue = "10", description = "per run; default ${DEFAULT-VALUE}")
        int seconds;
    }

    private ApiAgainstNginx() {}

    /** Publishes {@code board} into {@code <work>/published} (what is already there is kept); returns the directory. */
    static Path publish(PerfEnvironment env, Path work, String board) throws Exception {
        Path published = work.resolve("published");
        var a = env.stack.database();
        try (Publisher p = Publisher.open(new Publisher.Settings(a, published, Duration.ofSeconds(1), false))) {
            p.publish(board);
        }
        return published;
    }

    /**
     * The runs of {@code what}: {@code viaApi} against the API's board URL, {@code viaFiles} against
     * nginx's, each at every connection count of {@code options}, one result map a run.
     */
    static List<Map<String, Object>> run(
            String what,
            PerfEnvironment env,
            Path work,
            Path published,
            String board,
            Options options,
            List<List<String>> viaApi,
            List<List<String>> viaFiles,
            Predicate<HttpResponse<byte[]>> ok)
            throws Exception {
        String api = env.api().baseUrl() + "/boards/" + board;
        List<Map<String, Object>> runs = new ArrayList<>();
        try (NginxServer nginx =
                NginxServer.start(Path.of("infra/deploy/nginx-tiles.conf"), published, work.resolve("nginx"))) {
            String files = nginx.baseUrl() + "/" + board;
            TileLoad.warm(api, viaApi.stream().flatMap(List::stream).distinct().toList());
            TileLoad.warm(
                    files, viaFiles.stream().flatMap(List::stream).distinct().toList());
            for (int c : options.connections) {
                for (String target : List.of("api", "nginx")) {
                    TileLoad.Result x = target.equals("api")
                            ? TileLoad.run(api, viaApi, c, options.seconds, ok)
                            : TileLoad.run(files, viaFiles, c, options.seconds, ok);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("target", target);
                    m.put("connections", c);
                    m.putAll(x.asMap());
                    runs.add(m);
                    System.err.printf(
                            "%s %s, %d connection(s): %,.0f/s, p50 %.2f ms, p99 %.2f ms, errors %d%n",
                            what, target, c, x.perSecond(), x.p50Ms(), x.p99Ms(), x.errors());
                }
            }
        }
        return runs;
    }
}
