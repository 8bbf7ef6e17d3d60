package org.electorallog.monitor;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SignedNote;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.QueryApiSettings;
import org.electorallog.query.Role;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.testkit.Poll;
import org.electorallog.verifier.LogEndpoint;

/** A projection of its own topic into its own database, and a query API over it. */
record View(String topic, String jdbcUrl, Projector projector, QueryApi api) implements AutoCloseable {
    static final NoteSigner SIGNER = NoteSigner.generate("monitor-test.electoral-log.local");
    static final String PREFIX = "monitor-test.electoral-log.local/";
    static final Stack STACK = SharedStack.get();
    /** The API's observer token: entry bundles need it. */
    static final String OBSERVER = "observer-token-of-the-monitor-tests";

    static View start(String name) throws Exception {
        String topic = "monitor-" + name + "-" + System.nanoTime();
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(STACK.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        DatabaseLogin db = STACK.database();
        String database = "monitor_" + name + "_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("CREATE DATABASE " + database);
        }
        String url = db.onDatabase(database).jdbcUrl();
        Projector p = Projector.start(ProjectorSettings.defaults(
                        STACK.kafkaBootstrap(), db.atUrl(url), Path.of("target/stack/streams-" + topic), SIGNER)
                .withTopics(topic, topic + ".dlq")
                .withApplicationId("app-" + topic)
                .withBatch(500, Duration.ofMillis(50))
                .withOriginPrefix(PREFIX)
                .withCheckpointEvery(Duration.ZERO)
                .withKeyEncryption(org.electorallog.statement.KeyEncryptionKeys.generate()));
        QueryApi api = QueryApi.start(QueryApiSettings.publicOnly(db.atUrl(url), 0)
                .withAccess(new AccessSettings(
                        java.util.Map.of(Role.OBSERVER, OBSERVER), null, null, Set.of(), Set.of(), List.of())));
        return new View(topic, url, p, api);
    }

    /** Publishes each statement unsigned, but the log's own (a seal), which the log's key signs (decision 130). */
    void publish(List<Statement> statements) throws Exception {
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(STACK.kafkaBootstrap()), topic)) {
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
        return org.electorallog.statement.LogStatements.reserved(
                s.getBoard(), s.getKind().name(), s.getDeliveryId());
    }

    /**
     * Publishes each statement signed by {@code sender} (its sender signature over the canonical bytes),
     * but the log's own (a seal), which the log's key signs (decision 130).
     */
    void publishSigned(List<Statement> statements, org.electorallog.core.SigningKey sender) throws Exception {
        try (ElectoralLogProducer producer =
                ElectoralLogProducer.create(ElectoralLogProducer.defaults(STACK.kafkaBootstrap()), topic)) {
            for (Statement each : statements) {
                Statement s = each;
                org.electorallog.core.SigningKey key = logsOwn(s) ? SIGNER.statementKey() : sender;
                Statement st = Statement.newBuilder(s)
                        .setSenderPublicKey(java.nio.ByteBuffer.wrap(key.publicKey()))
                        .build();
                byte[] signature = key.sign(org.electorallog.schemas.CanonicalStatement.encode(st));
                producer.publish(org.electorallog.schemas.avro.Envelope.newBuilder()
                                .setStatement(st)
                                .setSenderSignature(java.nio.ByteBuffer.wrap(signature))
                                .build())
                        .get();
            }
        }
    }

    /** Waits until the board's latest checkpoint is at {@code size}. */
    void awaitCheckpoint(String board, long size) throws Exception {
        LogEndpoint e = new LogEndpoint(api.baseUrl(), null);
        Poll.until(Duration.ofMinutes(1), board + " checkpointed at " + size, () -> {
            String note = e.checkpoint(board);
            return note != null
                    && Checkpoint.parse(SignedNote.parse(note).text()).size() == size;
        });
    }

    @Override
    public void close() {
        api.close();
        projector.close();
    }
}
