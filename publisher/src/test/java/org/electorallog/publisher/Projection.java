package org.electorallog.publisher;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.node.LogNode;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.Projector;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.store.BoardTips;
import org.electorallog.testkit.Poll;

/**
 * A log of its own topic and database, checkpointing every batch (a {@link LogNode} without an
 * API): what the publisher reads.
 */
record Projection(String topic, String jdbcUrl, LogNode node) implements AutoCloseable {
    static final NoteSigner SIGNER = NoteSigner.generate("publisher-test.electoral-log.local");
    static final Stack STACK = SharedStack.get();

    static Projection start(String name) {
        String topic = "publisher-" + name + "-" + System.nanoTime();
        LogNode node = LogNode.on(
                        STACK.kafkaBootstrap(), STACK.database(), SIGNER, Path.of("target/stack/streams-" + topic))
                .topics(topic, topic + ".dlq", 1)
                .ownDatabase("publisher_" + name + "_" + System.nanoTime())
                .projector(s -> s.withApplicationId("app-" + topic)
                        .withBatch(100, Duration.ofMillis(20))
                        .withOriginPrefix("publisher-test.electoral-log.local/")
                        .withCheckpointEvery(Duration.ZERO)
                        .withKeyEncryption(KeyEncryptionKeys.generate()))
                .start();
        return new Projection(topic, node.login().jdbcUrl(), node);
    }

    Projector projector() {
        return node.projector();
    }

    ElectoralLogProducer producer() {
        return node.producer();
    }

    void publish(List<Statement> statements) throws Exception {
        try (ElectoralLogProducer producer = producer()) {
            for (Statement s : statements) {
                producer.publish(s);
            }
            producer.flush();
        }
    }

    /** Waits until the board's latest checkpoint is at {@code size}. */
    void awaitCheckpoint(String board, long size) throws Exception {
        DatabaseLogin db = STACK.database();
        Poll.until(Duration.ofMinutes(1), board + " checkpointed at " + size, () -> {
            try (Connection c = DriverManager.getConnection(jdbcUrl, db.user(), db.password())) {
                var tip = BoardTips.tip(c, board);
                return tip.isPresent()
                        && tip.get().checkpoint() != null
                        && tip.get().checkpoint().size() == size;
            }
        });
    }

    Publisher.Settings publishing(Path dir, boolean entries) {
        DatabaseLogin db = STACK.database();
        return new Publisher.Settings(db.atUrl(jdbcUrl), dir, Duration.ofMillis(50), entries);
    }

    @Override
    public void close() {
        node.close();
    }
}
