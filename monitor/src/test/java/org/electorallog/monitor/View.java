package org.electorallog.monitor;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.node.LogNode;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.Projector;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.Role;
import org.electorallog.schemas.CanonicalStatement;
import org.electorallog.schemas.avro.Envelope;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.LogStatements;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.LogEndpoint;

/** A log of its own topic and database, with a query API over it (a {@link LogNode}). */
record View(String topic, String jdbcUrl, LogNode node) implements AutoCloseable {
    static final NoteSigner SIGNER = NoteSigner.generate("monitor-test.electoral-log.local");
    static final String PREFIX = "monitor-test.electoral-log.local/";
    static final Stack STACK = SharedStack.get();
    /** The API's observer token: entry bundles need it. */
    static final String OBSERVER = "observer-token-of-the-monitor-tests";

    static View start(String name) {
        String topic = "monitor-" + name + "-" + System.nanoTime();
        LogNode node = LogNode.on(
                        STACK.kafkaBootstrap(), STACK.database(), SIGNER, Path.of("target/stack/streams-" + topic))
                .topics(topic, topic + ".dlq", 1)
                .ownDatabase("monitor_" + name + "_" + System.nanoTime())
                .projector(s -> s.withApplicationId("app-" + topic)
                        .withBatch(500, Duration.ofMillis(50))
                        .withOriginPrefix(PREFIX)
                        .withCheckpointEvery(Duration.ZERO)
                        .withKeyEncryption(KeyEncryptionKeys.generate()))
                .api(
                        0,
                        a -> a.withAccess(new AccessSettings(
                                Map.of(Role.OBSERVER, OBSERVER), null, null, Set.of(), Set.of(), List.of())))
                .start();
        return new View(topic, node.login().jdbcUrl(), node);
    }

    Projector projector() {
        return node.projector();
    }

    QueryApi api() {
        return node.api();
    }

    /** Publishes each statement unsigned, but the log's own (a seal), which the log's key signs (decision 130). */
    void publish(List<Statement> statements) throws Exception {
        try (ElectoralLogProducer producer = node.producer()) {
            for (Statement s : statements) {
                if (logsOwn(s)) {
                    publishSigned(List.of(s), SIGNER.statementKey());
                } else {
                    producer.publish(s).get();
                }
            }
        }
    }

    private static boolean logsOwn(Statement s) {
        return LogStatements.reserved(s.getBoard(), s.getKind().name(), s.getDeliveryId());
    }

    /**
     * Publishes each statement signed by {@code sender} (its sender signature over the canonical bytes),
     * but the log's own (a seal), which the log's key signs (decision 130).
     */
    void publishSigned(List<Statement> statements, SigningKey sender) throws Exception {
        try (ElectoralLogProducer producer = node.producer()) {
            for (Statement each : statements) {
                Statement s = each;
                SigningKey key = logsOwn(s) ? SIGNER.statementKey() : sender;
                Statement st = Statement.newBuilder(s)
                        .setSenderPublicKey(ByteBuffer.wrap(key.publicKey()))
                        .build();
                byte[] signature = key.sign(CanonicalStatement.encode(st));
                producer.publish(Envelope.newBuilder()
                                .setStatement(st)
                                .setSenderSignature(ByteBuffer.wrap(signature))
                                .build())
                        .get();
            }
        }
    }

    /** Waits until the board's latest checkpoint is at {@code size}. */
    void awaitCheckpoint(String board, long size) throws Exception {
        LogEndpoint e = new LogEndpoint(api().baseUrl(), null);
        Poll.until(Duration.ofMinutes(1), board + " checkpointed at " + size, () -> {
            String note = e.checkpoint(board);
            return note != null
                    && Checkpoint.parse(SignedNote.parse(note).text()).size() == size;
        });
    }

    @Override
    public void close() {
        node.close();
    }
}
