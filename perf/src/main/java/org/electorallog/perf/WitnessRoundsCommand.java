package org.electorallog.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.core.WitnessPolicy;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.projector.Witnessing;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.witness.FollowedLogs;
import org.electorallog.witness.WitnessServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 45 item 4, the witnessing figure: how many {@code add-checkpoint} requests one witness gets
 * for a round in which every board changed, for 1, 100 and 1,000 boards, with every board witnessed
 * on its own (BOARDS) and through the heads board (HEADS, docs/witnesses.md). Rounds are run one at a
 * time by this command (Witnessing's unscheduled form) against a real witness, which counts what it
 * answers; each round's wall time is kept too.
 */
@Command(
        name = "witness-rounds",
        description = "add-checkpoint requests a round when every board changed, BOARDS against HEADS witness mode")
final class WitnessRoundsCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--boards", defaultValue = "1,100,1000", split = ",", description = "default ${DEFAULT-VALUE}")
    List<Integer> boards;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "rounds measured per mode and board count; default ${DEFAULT-VALUE}")
    int rounds;

    @Override
    public Integer call() throws Exception {
        List<Map<String, Object>> runs = new ArrayList<>();
        Map<String, Object> r = new LinkedHashMap<>();
        try (PerfEnvironment env = PerfEnvironment.open(dirs.work)) {
            env.projector(Duration.ZERO); // a checkpoint after every batch: every grown board has a new one
            ProjectorSettings settings = env.projectorSettings(Duration.ZERO, Duration.ofMillis(100));
            Cosigner.Key key = Cosigner.Key.generate("witness.perf.electoral-log.local");
            Path state = dirs.work.resolve("witness-rounds-state-" + System.nanoTime());
            try (WitnessServer witness = WitnessServer.start(
                            "127.0.0.1",
                            0,
                            key,
                            FollowedLogs.parse(List.of(settings.originPrefix() + "* " + env.signer.verifierKey())),
                            state,
                            true,
                            WitnessServer.Options.defaults());
                    ElectoralLogProducer producer = ElectoralLogProducer.create(env.stack.kafkaBootstrap())) {
                WitnessPolicy policy =
                        WitnessPolicy.parse(List.of(key.verifierKey() + " http://127.0.0.1:" + witness.port()), "1");
                long[] grown = new long
                        [boards.stream().mapToInt(Integer::intValue).max().orElse(0)];
                for (String mode : List.of("BOARDS", "HEADS")) {
                    try (Witnessing w =
                            Witnessing.unscheduled(policy, settings, Duration.ofSeconds(30), mode.equals("HEADS"))) {
                        for (int n : boards) {
                            for (int round = 0; round < rounds; round++) {
                                grow(producer, n, grown);
                                awaitProjected(env);
                                long entries = 0;
                                if (mode.equals("HEADS")) {
                                    entries = w.headRound();
                                    awaitProjected(env);
                                }
                                long before = witness.addCheckpointRequests();
                                long t0 = System.nanoTime();
                                w.round(policy.witnesses().get(0));
                                double seconds = (System.nanoTime() - t0) / 1e9;
                                Map<String, Object> m = new LinkedHashMap<>();
                                m.put("mode", mode);
                                m.put("boards", n);
                                m.put("round", round);
                                m.put("heads_entries", entries);
                                m.put("requests", witness.addCheckpointRequests() - before);
                                m.put("round_seconds", Latencies.round(seconds));
                                runs.add(m);
                                System.err.printf(
                                        "witness-rounds %s, %d board(s), round %d: %d request(s) in %.3f s%n",
                                        mode, n, round, witness.addCheckpointRequests() - before, seconds);
                            }
                        }
                    }
                }
            }
            r.put("rounds", rounds);
            r.put("runs", runs);
            r.putAll(env.describe());
        }
        dirs.write("witness-rounds", r);
        return 0;
    }

    /** One statement more on each of the first {@code n} boards ({@code wr-0} ...). */
    private static void grow(ElectoralLogProducer producer, int n, long[] grown) throws Exception {
        for (int b = 0; b < n; b++) {
            // a seed of its own per statement: a generator's statements, delivery IDs included, repeat for a seed
            long seed = ((long) b << 32) | grown[b];
            var unused = producer.publish(
                    new ElectionStatements("wr-" + b, seed).vote("voter-" + grown[b], 1_000 + grown[b]));
            grown[b]++;
        }
        producer.flush();
    }

    private static void awaitProjected(PerfEnvironment env) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (!env.caughtUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the projector did not catch up within 10 minutes");
            }
            Thread.sleep(50); // poll interval; the projector's stored offsets are the condition
        }
    }
}
