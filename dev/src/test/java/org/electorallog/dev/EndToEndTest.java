package org.electorallog.dev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Hashes;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.ProofVerifier;
import org.electorallog.core.TileTree;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.Poll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statements through producer -> Kafka -> projector -> PostgreSQL -> HTTP: each gets exactly one ID,
 * IDs per board are 0..n-1 in publish order, and the root served over HTTP is the root of what was
 * published.
 */
class EndToEndTest {
    static final int STATEMENTS = Integer.getInteger("electoral-log.test.statements", 10_000);
    static Stack stack;
    static DevEnvironment env;
    static NoteSigner signer = NoteSigner.generate("e2e.electoral-log.local");

    @BeforeAll
    static void start() {
        stack = SharedStack.get();
        env = DevEnvironment.start(stack, false, Path.of("target/stack/e2e"), 0, signer);
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    @Test
    void everyStatementGetsExactlyOneIdInPublishOrderAndTheServedRootMatches() throws Exception {
        int votersPerBoard = STATEMENTS / 10;
        Map<String, List<Statement>> published = new LinkedHashMap<>();
        published.put("e2e-board-a", new ElectionStatements("e2e-board-a", 1).election(votersPerBoard));
        published.put("e2e-board-b", new ElectionStatements("e2e-board-b", 2).election(votersPerBoard));
        List<CompletableFuture<PublishResult>> acks = new ArrayList<>();
        try (ElectoralLogProducer producer = ElectoralLogProducer.create(stack.kafkaBootstrap())) {
            for (int i = 0; i < votersPerBoard * 5; i++) {
                for (List<Statement> board : published.values()) {
                    acks.add(producer.publish(board.get(i)));
                }
            }
        }
        for (CompletableFuture<PublishResult> a : acks) {
            assertTrue(a.isDone() && !a.isCompletedExceptionally(), "every publish is acknowledged");
        }
        assertEquals(STATEMENTS, acks.size());

        LogClient client = new LogClient(env.api().baseUrl());
        awaitSizes(client, published);

        DatabaseLogin db = stack.database();
        NoteVerifier verifier = NoteVerifier.parse(signer.verifierKey());
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            for (Map.Entry<String, List<Statement>> e : published.entrySet()) {
                List<Statement> sent = e.getValue();
                List<String> deliveryIdsById = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT r.id, r.delivery_id FROM records r JOIN boards b USING (board_id) WHERE b.name = ? ORDER BY r.id")) {
                    ps.setString(1, e.getKey());
                    try (ResultSet rs = ps.executeQuery()) {
                        long expectedId = 0;
                        while (rs.next()) {
                            assertEquals(expectedId++, rs.getLong(1), "IDs are gap-free from 0");
                            deliveryIdsById.add(rs.getString(2));
                        }
                    }
                }
                assertEquals(
                        sent.size(), deliveryIdsById.size(), "one record per published statement on " + e.getKey());
                Set<String> distinct = new HashSet<>(deliveryIdsById);
                assertEquals(sent.size(), distinct.size(), "no statement doubled");
                for (int i = 0; i < sent.size(); i++) {
                    assertEquals(
                            sent.get(i).getDeliveryId(),
                            deliveryIdsById.get(i),
                            "ID " + i + " is the " + i + "th published");
                }

                TileTree expected = TileTree.empty();
                List<byte[]> leaves = new ArrayList<>();
                for (Statement s : sent) {
                    byte[] leaf = Hashes.leafHash(StatementCodec.canonical(s));
                    leaves.add(leaf);
                    expected.appendLeafHash(leaf);
                }
                Checkpoint cp = ElectionDemo.awaitCheckpoint(
                        client, verifier, e.getKey(), sent.size(), java.time.Duration.ofSeconds(30));
                assertEquals(sent.size(), cp.size());
                assertArrayEquals(
                        expected.root(), cp.root(), "root served over HTTP = root of the published statements");
                for (long id : new long[] {0, 1, sent.size() / 2, sent.size() - 1}) {
                    LogClient.InclusionProof p = client.proof(e.getKey(), id, null);
                    ProofVerifier.verifyInclusion(id, cp.size(), leaves.get((int) id), p.hashes(), cp.root());
                }
            }
        }
    }

    static void awaitSizes(LogClient client, Map<String, List<Statement>> published) throws Exception {
        // every 200 ms: within the read rate limit
        Poll.until(
                Duration.ofSeconds(180),
                Duration.ofMillis(200),
                "the projection to reach the published sizes",
                client::boardSizes,
                sizes -> published.entrySet().stream()
                        .allMatch(e -> sizes.getOrDefault(e.getKey(), 0L)
                                >= e.getValue().size()));
    }
}
