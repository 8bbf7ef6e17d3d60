package org.electorallog.perf;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Setting;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 68, the cost of post-quantum checkpoints (decision 146): the thread CPU time of signing a
 * checkpoint with the log's Ed25519 key and with its ML-DSA-44 key (C2SP tlog-cosignature subtree/v1),
 * and of verifying each, measured here on this machine after a warm-up; from them the share of one
 * core that signing takes at {@code --boards} active boards, each checkpointed every {@code
 * --checkpoint-every-ms}, under two rules: ML-DSA-44 on every checkpoint, and decision 146's (the heads
 * board's, the sealed ones, and a board's at most once per {@code --post-quantum-every-ms}). Also the
 * size of a checkpoint note with the log's two signatures and one witness's two cosignatures.
 */
@Command(
        name = "signing",
        description = "CPU cost of Ed25519 and ML-DSA-44 checkpoint signatures, and the core share at N active boards")
final class SigningCommand implements Callable<Integer> {
    @CommandLine.Mixin
    PerfCommand.Dirs dirs;

    @Option(names = "--boards", defaultValue = "1000", description = "active boards; default ${DEFAULT-VALUE}")
    int boards;

    @Option(
            names = "--checkpoint-every-ms",
            defaultValue = "1000",
            description = "a board's checkpoint interval (ELECTORAL_LOG_CHECKPOINT_EVERY_MS); default ${DEFAULT-VALUE}")
    long checkpointEveryMs;

    @Option(
            names = "--post-quantum-every-ms",
            defaultValue = "60000",
            description = "ELECTORAL_LOG_POST_QUANTUM_CHECKPOINT_EVERY_MS; default ${DEFAULT-VALUE}")
    long postQuantumEveryMs;

    @Option(
            names = "--signatures",
            defaultValue = "4000",
            description = "signatures timed per kind; default ${DEFAULT-VALUE}")
    int signatures;

    @Override
    public Integer call() throws Exception {
        NoteSigner log = NoteSigner.generate("perf.electoral-log.local")
                .withPostQuantum(Cosigner.Key.generateMlDsa44("perf.electoral-log.local"));
        Cosigner.Key witnessEd = Cosigner.Key.generate("witness.perf.electoral-log.local");
        Cosigner.Key witnessPq = Cosigner.Key.generateMlDsa44("witness.perf.electoral-log.local");
        NoteVerifier edKey = NoteVerifier.parse(log.verifierKeys().get(0));
        NoteVerifier pqKey = NoteVerifier.parse(log.verifierKeys().get(1));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long[] sizes = new long[signatures];
        for (int i = 0; i < signatures; i++) {
            sizes[i] = 1_000_000L + i;
        }
        byte[] root = Hashes.sha256("root".getBytes(StandardCharsets.UTF_8));
        // warm-up: the JIT compiles both paths before anything is timed
        for (int i = 0; i < Math.min(2000, signatures); i++) {
            Checkpoint c = new Checkpoint("perf.electoral-log.local/board-1", sizes[i], root);
            Checkpoint.open(c.sign(log, true, 1_800_000_000L + i), List.of(edKey, pqKey));
        }
        long t0 = cpu.getCurrentThreadCpuTime();
        String edNote = null;
        for (int i = 0; i < signatures; i++) {
            edNote = new Checkpoint("perf.electoral-log.local/board-1", sizes[i], root).sign(log);
        }
        long ed = cpu.getCurrentThreadCpuTime() - t0;
        Checkpoint body = new Checkpoint("perf.electoral-log.local/board-1", 20_000_000L, root);
        t0 = cpu.getCurrentThreadCpuTime();
        SignedNote.Signature line = null;
        for (int i = 0; i < signatures; i++) {
            line = log.postQuantum().orElseThrow().cosign(body.body(), 1_800_000_000L + i);
        }
        long pq = cpu.getCurrentThreadCpuTime() - t0;
        String both = body.sign(log, true, 1_800_000_000L);
        t0 = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < signatures; i++) {
            Checkpoint.open(edNote, List.of(edKey));
        }
        long edVerify = cpu.getCurrentThreadCpuTime() - t0;
        t0 = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < signatures; i++) {
            Checkpoint.open(both, List.of(pqKey));
        }
        long pqVerify = cpu.getCurrentThreadCpuTime() - t0;
        if (line == null) {
            throw new IllegalStateException("nothing signed");
        }
        SignedNote parsed = SignedNote.parse(both);
        String witnessed = parsed.withSignature(witnessEd.cosign(parsed.text(), 1_800_000_000L))
                .withSignature(witnessPq.cosign(parsed.text(), 1_800_000_000L))
                .serialize();

        double edMs = ed / 1e6 / signatures;
        double pqMs = pq / 1e6 / signatures;
        double checkpointsPerSecond = boards * 1000.0 / checkpointEveryMs;
        // every checkpoint: both signatures on each
        double everyShare = checkpointsPerSecond * (edMs + pqMs) / 1000.0;
        // decision 146: Ed25519 on each; ML-DSA-44 on a board's at most once per interval, plus the heads board's
        double pqPerSecond =
                Math.min(checkpointsPerSecond, boards * 1000.0 / Math.max(postQuantumEveryMs, checkpointEveryMs))
                        + 1000.0 / checkpointEveryMs;
        double ruleShare = (checkpointsPerSecond * edMs + pqPerSecond * pqMs) / 1000.0;

        Map<String, Object> r = new LinkedHashMap<>();
        r.put(
                "what",
                "thread CPU ms per checkpoint signature and verification, after a warm-up; core share of "
                        + "checkpoint signing at the active boards given");
        r.put("signatures_timed_per_kind", signatures);
        r.put("ed25519_sign_ms", round(edMs));
        r.put("ml_dsa_44_sign_ms", round(pqMs));
        r.put("ed25519_verify_ms", round(edVerify / 1e6 / signatures));
        r.put("ml_dsa_44_verify_ms", round(pqVerify / 1e6 / signatures));
        r.put("boards", boards);
        r.put("checkpoint_every_ms", checkpointEveryMs);
        r.put("post_quantum_every_ms", postQuantumEveryMs);
        r.put("core_share_ml_dsa_on_every_checkpoint", round(everyShare));
        r.put("ml_dsa_44_signatures_per_second_decision_146", round(pqPerSecond));
        r.put("core_share_decision_146", round(ruleShare));
        r.put("note_bytes_ed25519_only", edNote.getBytes(StandardCharsets.UTF_8).length);
        r.put("note_bytes_log_both", both.getBytes(StandardCharsets.UTF_8).length);
        r.put("note_bytes_log_both_and_one_witness_both", witnessed.getBytes(StandardCharsets.UTF_8).length);
        r.put("setting", Setting.POST_QUANTUM_CHECKPOINT_EVERY_MS.env);
        System.out.printf(
                "Ed25519 %.3f ms, ML-DSA-44 %.3f ms a signature; at %,d boards: %.1f %% of a core with ML-DSA-44 on "
                        + "every checkpoint, %.2f %% under decision 146; a note with 4 signatures: %,d bytes%n",
                edMs,
                pqMs,
                boards,
                100 * everyShare,
                100 * ruleShare,
                witnessed.getBytes(StandardCharsets.UTF_8).length);
        dirs.write("signing", r);
        return 0;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
