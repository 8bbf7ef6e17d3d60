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
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.BoardTips;
import org.electorallog.testkit.Poll;

/** A projector of its own topic into its own database, checkpointing every batch: what the publisher reads. */
record Projection(String topic, String jdbcUrl, Projector projector) implements AutoCloseable {
    static final NoteSigner SIGNER = NoteSigner.generate("publisher-test.electoral-log.local");
    static final Stack STACK = SharedStack.get();

    static Projection start(String name) throws Exception {
        String topic = "publisher-" + name + "-" + System.nanoTime();
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseLogin db = STACK.database();
        String database = "publisher_" + name + "_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("CREATE DATABASE " + database);
        }
        String url = db.onDatabase(database).jdbcUrl();
        Projector p = Projector.start(ProjectorSettings.defaults(
                        STACK.kafkaBootstrap(), db.atUrl(url), Path.of("target/stack/streams-" + topic), SIGNER)
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("app-" + topic)
                .withBatch(100, Duration.ofMillis(20))
                .withOriginPrefix("publisher-test.electoral-log.local/")
                .withCheckpointEvery(Duration.ZERO)
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate()));
        return new Projection(topic, url, p);
    }

    ElectoralLogProducer producer() {
        return ElectoralLogProducer.create(ElectoralLogProducer.defaults(STACK.kafkaBootstrap()), topic);
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
        projector.close();
    }
}
