package org.electorallog.dev;

import java.io.IOException;
import java.io.PrintStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofException;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.TileTree;
import org.electorallog.launcher.SealCommand;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.Projection;

/**
 * The demo's work on a running environment: publish an election on several boards, each ending with
 * its seal (the back office's BOARD_SEALED statement, as {@code electoral-log seal} sends it), in
 * the committed form (docs/personal-data.md: every personal value committed to, its opening sealed
 * under the board's key of its day in the projection's key store), wait until every statement is
 * projected and each board reports itself sealed at the published size, then act as an observer:
 * fetch each board's signed checkpoint and a sample of inclusion proofs over HTTP and verify them
 * against roots recomputed from the leaves the producer reported for what it published.
 */
public final class ElectionDemo {
    private final DevEnvironment env;
    private final PrintStream out;

    public ElectionDemo(DevEnvironment env, PrintStream out) {
        this.env = env;
        this.out = out;
    }

    /** What the demo found, per board. */
    public record BoardResult(String board, long records, String rootBase64, int proofsVerified) {}

    /** Publishes {@code voters} voters on each board and verifies; throws with the reason on any failure. */
    public List<BoardResult> run(List<String> boards, int voters, int proofsPerBoard, Duration timeout)
            throws IOException, ProofException {
        Map<String, List<Statement>> published = new LinkedHashMap<>();
        for (int i = 0; i < boards.size(); i++) {
            List<Statement> election =
                    new ArrayList<>(new ElectionStatements(boards.get(i), 1000 + i).election(voters));
            // the election is over: the board's last record is its seal (issue 42)
            election.add(SealCommand.statement(boards.get(i), "back-office", null, System.currentTimeMillis()));
            published.put(boards.get(i), election);
        }
        Map<String, List<byte[]>> leaves = publish(published);
        LogClient client = new LogClient(env.api().baseUrl());
        waitForProjection(client, published, timeout);
        NoteVerifier verifier = NoteVerifier.parse(env.signer().verifierKey());
        List<BoardResult> results = new ArrayList<>();
        Random random = new Random(7);
        for (Map.Entry<String, List<byte[]>> e : leaves.entrySet()) {
            results.add(verifyBoard(client, verifier, e.getKey(), e.getValue(), proofsPerBoard, random));
        }
        return results;
    }

    /** Publishes every board's statements in the committed form; returns each board's leaf hashes in order. */
    private Map<String, List<byte[]>> publish(Map<String, List<Statement>> published) {
        long total = published.values().stream().mapToLong(List::size).sum();
        out.printf("publishing %,d statements on %d boards in the committed form%n", total, published.size());
        DatabaseLogin db = env.stack().database();
        Map<String, List<CompletableFuture<PublishResult>>> acks = new LinkedHashMap<>();
        try (Projection keyStore = Projection.open(db, 2, "demo-keys");
                ElectoralLogProducer producer = ElectoralLogProducer.builder(
                                env.stack().kafkaBootstrap())
                        .committedForm(keyStore.sealingKeys())
                        .build();
                // a seal is the log's own statement, signed with the log's key (decision 130)
                ElectoralLogProducer sealer = ElectoralLogProducer.builder(
                                env.stack().kafkaBootstrap())
                        .senderKey(env.signer().statementKey())
                        .build()) {
            int longest = published.values().stream().mapToInt(List::size).max().orElse(0);
            for (int i = 0; i < longest; i++) {
                for (Map.Entry<String, List<Statement>> board : published.entrySet()) {
                    if (i < board.getValue().size() - 1) {
                        acks.computeIfAbsent(board.getKey(), b -> new ArrayList<>())
                                .add(producer.publish(board.getValue().get(i)));
                    }
                }
            }
            producer.flush();
            // every board's last statement is its seal: sent once Kafka holds the others, so it is last
            for (Map.Entry<String, List<CompletableFuture<PublishResult>>> board : acks.entrySet()) {
                CompletableFuture.allOf(board.getValue().toArray(CompletableFuture[]::new))
                        .exceptionally(e -> null)
                        .join();
            }
            for (Map.Entry<String, List<Statement>> board : published.entrySet()) {
                List<Statement> st = board.getValue();
                acks.computeIfAbsent(board.getKey(), b -> new ArrayList<>()).add(sealer.publish(st.get(st.size() - 1)));
            }
            sealer.flush();
        }
        Map<String, List<byte[]>> leaves = new LinkedHashMap<>();
        long failed = 0;
        for (Map.Entry<String, List<CompletableFuture<PublishResult>>> board : acks.entrySet()) {
            List<byte[]> hashes = new ArrayList<>();
            for (CompletableFuture<PublishResult> a : board.getValue()) {
                if (a.isCompletedExceptionally()) {
                    failed++;
                } else {
                    hashes.add(Base64.getDecoder().decode(a.join().leafHashBase64()));
                }
            }
            leaves.put(board.getKey(), hashes);
        }
        if (failed > 0) {
            throw new IllegalStateException(failed + " statements were not acknowledged by Kafka");
        }
        out.printf("published and acknowledged: %,d%n", total);
        return leaves;
    }

    private void waitForProjection(LogClient client, Map<String, List<Statement>> published, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Long> sizes = client.boardSizes();
            boolean done = true;
            for (Map.Entry<String, List<Statement>> e : published.entrySet()) {
                long size = sizes.getOrDefault(e.getKey(), 0L);
                if (size > e.getValue().size()) {
                    throw new IllegalStateException("board " + e.getKey() + " has " + size + " records, more than the "
                            + e.getValue().size() + " published");
                }
                done &= size == e.getValue().size();
            }
            if (done) {
                for (Map.Entry<String, List<Statement>> e : published.entrySet()) {
                    long sealed = client.sealedSize(e.getKey());
                    if (sealed != e.getValue().size()) {
                        throw new IllegalStateException("board " + e.getKey() + " reports its seal at " + sealed
                                + ", not at the " + e.getValue().size() + " records published with the seal last");
                    }
                }
                out.printf("every board sealed at the size published%n");
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "not every statement was projected within " + timeout.toSeconds() + " s: sizes " + sizes);
            }
            try {
                Thread.sleep(100); // polling interval of the observer, not a synchronisation stand-in
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the projection", ie);
            }
        }
    }

    /**
     * The board's latest signed checkpoint once it covers {@code size} records (checkpoints are
     * signed on an interval, so the newest may trail the projection by up to that interval).
     */
    static Checkpoint awaitCheckpoint(
            LogClient client, NoteVerifier verifier, String board, long size, Duration timeout)
            throws IOException, ProofException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Checkpoint cp = Checkpoint.open(client.checkpoint(board), List.of(verifier));
            if (cp.size() >= size || System.nanoTime() > deadline) {
                return cp;
            }
            try {
                Thread.sleep(100); // polling interval of the observer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a checkpoint", e);
            }
        }
    }

    private BoardResult verifyBoard(
            LogClient client, NoteVerifier verifier, String board, List<byte[]> leaves, int proofs, Random random)
            throws IOException, ProofException {
        TileTree local = TileTree.empty();
        for (byte[] leaf : leaves) {
            local.appendLeafHash(leaf);
        }
        Checkpoint cp = awaitCheckpoint(client, verifier, board, leaves.size(), Duration.ofSeconds(30));
        if (cp.size() != leaves.size()) {
            throw new ProofException(
                    "board " + board + ": checkpoint size " + cp.size() + ", published " + leaves.size());
        }
        if (!MessageDigest.isEqual(cp.root(), local.root())) {
            throw new ProofException(
                    "board " + board + ": checkpoint root differs from the root of the published statements");
        }
        int verified = 0;
        for (int i = 0; i < proofs; i++) {
            long id = i == 0 ? 0 : i == 1 ? leaves.size() - 1 : random.nextInt(leaves.size());
            LogClient.InclusionProof p = client.proof(board, id, null);
            if (!MessageDigest.isEqual(p.leafHash(), leaves.get((int) id))) {
                throw new ProofException(
                        "board " + board + ": record " + id + " is not the statement published " + id + "th");
            }
            ProofVerifier.verifyInclusion(id, cp.size(), leaves.get((int) id), p.hashes(), cp.root());
            verified++;
        }
        return new BoardResult(board, cp.size(), Base64.getEncoder().encodeToString(cp.root()), verified);
    }
}
