package org.electorallog.perf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
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
import org.electorallog.mirror.MirrorClient;
import org.electorallog.mirror.MirrorServer;
import org.electorallog.witness.FollowedLogs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 68 item 4, whether a mirror keeps up with a busy board: a log of {@code --records} entries
 * of {@code --entry-bytes} each (in memory, its tiles and signed checkpoints as a log serves them)
 * pushed to a real mirror over HTTP by the mirror client (tlog-mirror add-checkpoint and
 * add-entries: gzip, 32 packages a request, each package's subtree proof checked and its files
 * fsynced before the mirror cosigns), first as one catch-up, then {@code --rounds} rounds of
 * {@code --per-round} new entries each, one second of a board at that rate: the mirror keeps up when
 * each round takes under a second. Client and mirror share this machine's two cores.
 */
@Command(
        name = "mirror",
        description = "Entries a second a mirror (tlog-mirror) takes in, catching up and round by round")
final class MirrorRateCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--records", defaultValue = "1000000", description = "entries caught up; default ${DEFAULT-VALUE}")
    int records;

    @Option(names = "--entry-bytes", defaultValue = "400", description = "bytes an entry; default ${DEFAULT-VALUE}")
    int entryBytes;

    @Option(
            names = "--per-round",
            defaultValue = "30000",
            description = "new entries each round (a board's rate a second); default ${DEFAULT-VALUE}")
    int perRound;

    @Option(names = "--rounds", defaultValue = "10", description = "rounds; default ${DEFAULT-VALUE}")
    int rounds;

    /** The log in memory: entries, the widest version of each tile, signed checkpoints. */
    private final List<byte[]> entries = new ArrayList<>();

    private final TileTree tree = TileTree.empty();
    private final Map<TileKey, byte[]> tiles = new HashMap<>();
    private final NoteSigner signer = NoteSigner.generate("perf.electoral-log.local");
    private static final String ORIGIN = "perf.electoral-log.local/mirror-board";

    @Override
    public Integer call() throws Exception {
        Path state = dirs.work.resolve("mirror-state");
        if (Files.exists(state)) {
            try (Stream<Path> old = Files.walk(state)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Random random = new Random(68);
        grow(records, random);
        List<Cosigner.Key> keys = List.of(
                Cosigner.Key.generate("mirror.perf.electoral-log.local"),
                Cosigner.Key.generateMlDsa44("mirror.perf.electoral-log.local"));
        Map<String, Object> r = new LinkedHashMap<>();
        try (MirrorServer mirror = MirrorServer.start(
                "127.0.0.1",
                0,
                keys,
                FollowedLogs.parse(List.of(ORIGIN + " " + signer.verifierKey())),
                state,
                true,
                Duration.ofSeconds(60),
                8)) {
            MirrorClient client = new MirrorClient("http://127.0.0.1:" + mirror.port());
            long t0 = System.nanoTime();
            MirrorClient.Pushed first = client.push(at(tree.size()));
            double catchUp = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    "catch-up: %,d entries in %.2f s, %,.0f entries/s%n",
                    first.entriesSent(), catchUp, first.entriesSent() / catchUp);
            List<Double> seconds = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                grow(tree.size() + perRound, random);
                long t = System.nanoTime();
                MirrorClient.Pushed p = client.push(at(tree.size()));
                double s = (System.nanoTime() - t) / 1e9;
                seconds.add(s);
                System.out.printf("round %d: %,d entries in %.3f s%n", i + 1, p.entriesSent(), s);
            }
            double[] sorted =
                    seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = sorted.length == 0 ? 0 : sorted[sorted.length / 2];
            double max = sorted.length == 0 ? 0 : sorted[sorted.length - 1];
            r.put(
                    "what",
                    "a log pushed to a real mirror over HTTP (tlog-mirror add-checkpoint and add-entries, gzip, 32 "
                            + "packages a request, subtree proofs checked, files fsynced before each cosignature); "
                            + "client and mirror on this machine");
            r.put("records", records);
            r.put("entry_bytes", entryBytes);
            r.put("catch_up_seconds", round(catchUp));
            r.put("catch_up_entries_per_second", Math.round(first.entriesSent() / catchUp));
            r.put("per_round", perRound);
            r.put("rounds", rounds);
            r.put(
                    "round_seconds",
                    seconds.stream().map(MirrorRateCommand::round).toList());
            r.put("round_seconds_median", round(median));
            r.put("round_seconds_max", round(max));
            r.put("keeps_up_with_entries_per_second", perRound);
            r.put("keeps_up", max < 1.0);
            r.put("round_entries_per_second_at_max", Math.round(perRound / max));
            System.out.printf(
                    "%,d entries a round: median %.3f s, slowest %.3f s: %s%n",
                    perRound, median, max, max < 1.0 ? "keeps up" : "falls behind");
        }
        dirs.write("mirror", r);
        return 0;
    }

    private void grow(long to, Random random) {
        byte[] body = new byte[entryBytes];
        while (tree.size() < to) {
            random.nextBytes(body);
            byte[] entry = Arrays.copyOf(body, entryBytes);
            byte[] n = Long.toString(tree.size()).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(n, 0, entry, 0, Math.min(n.length, entry.length));
            entries.add(entry);
            tree.appendLeafHash(Hashes.leafHash(entry));
        }
        for (Tile t : tree.drainChangedTiles()) {
            tiles.put(t.key(), t.hashes());
        }
    }

    /** The log's files as of {@code size}, as a log serves them. */
    private TiledFiles at(long size) {
        String checkpoint = new Checkpoint(ORIGIN, size, ProofBuilder.rootAt(size, keys -> tiles)).sign(signer);
        return path -> {
            if (path.equals("checkpoint")) {
                return checkpoint.getBytes(StandardCharsets.UTF_8);
            }
            TilePath p = TilePath.parse(path);
            if (p.entries()) {
                long from = p.index() * TileLayout.TILE_WIDTH;
                return from + p.width() > size
                        ? null
                        : EntryBundle.encode(entries.subList((int) from, (int) from + p.width()));
            }
            byte[] tile = tiles.get(new TileKey(p.level(), p.index()));
            int width = TileLayout.width(p.level(), p.index(), size);
            return tile == null || width != p.width() ? null : Arrays.copyOf(tile, width * Hashes.HASH_SIZE);
        };
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
