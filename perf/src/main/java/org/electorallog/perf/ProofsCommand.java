package org.electorallog.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.ProofBuilder;
import org.electorallog.core.SignedNote;
import org.electorallog.core.TileKey;
import org.electorallog.core.TileLayout;
import org.electorallog.core.TreeMath;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 45 item 4, the proof figure: record proofs per second and their latency through the query
 * API ({@code GET /boards/{board}/records/{id}/proof}: the proof, its root and the signed checkpoint
 * in one answer) against a client that builds the same proof from the static publication behind
 * nginx ({@code publish-tiles}, {@code infra/deploy/nginx-tiles.conf}): the checkpoint, then each tile
 * on the record's path at the checkpoint's size (C2SP tlog-tiles), one after the other on one
 * connection, timed as one proof. Same records, same connection counts, the targets alternated,
 * each warmed first; the load generator shares the machine.
 */
@Command(
        name = "proofs",
        description = "Record proofs per second through the query API against the published tiles behind nginx, "
                + "at 1, 16 and 64 connections")
final class ProofsCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @CommandLine.Mixin
    ApiAgainstNginx.Options load;

    @Option(
            names = "--records",
            defaultValue = "4096",
            description = "distinct records asked for; default ${DEFAULT-VALUE}")
    int records;

    @Override
    public Integer call() throws Exception {
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            String name = load.board != null ? load.board : env.largestBoard();
            Path published = ApiAgainstNginx.publish(env, dirs.work, name);
            // the published checkpoint's size: the board does not grow meanwhile, so both prove in one tree
            long size = Checkpoint.parse(SignedNote.parse(
                                    Files.readString(published.resolve(name).resolve("checkpoint")))
                            .text())
                    .size();
            Random random = new Random(45);
            List<List<String>> viaApi = new ArrayList<>();
            List<List<String>> viaFiles = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                long id = (long) (random.nextDouble() * size);
                viaApi.add(List.of("/records/" + id + "/proof")); // at the latest checkpoint, the published one
                List<String> op = new ArrayList<>();
                op.add("/checkpoint");
                for (TileKey k : ProofBuilder.tilesFor(TreeMath.inclusionRanges(id, size))) {
                    op.add("/"
                            + TileLayout.tilePath(k.level(), k.index(), TileLayout.width(k.level(), k.index(), size)));
                }
                viaFiles.add(op);
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("board", name);
            r.put("board_size", size);
            r.put("distinct_records", records);
            r.put(
                    "requests_per_proof_from_files",
                    viaFiles.stream().mapToInt(List::size).average().orElse(0));
            r.put(
                    "runs",
                    ApiAgainstNginx.run(
                            "proofs", env, dirs.work, published, name, load, viaApi, viaFiles, TileLoad.OK));
            r.putAll(env.describe());
            dirs.write("proofs-" + name + "-" + PerfCommand.label(size), r);
        }
        return 0;
    }
}
