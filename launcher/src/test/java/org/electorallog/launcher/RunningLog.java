package org.electorallog.launcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.NoteSigner;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.node.LogNode;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.QueryApiSettings;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * A log for a command's test: a topic of its own (and its dead-letter topic) on the shared stack, a
 * projector signing a checkpoint every batch, a query API without credentials over the shared
 * database, and a producer of the topic.
 */
final class RunningLog implements AutoCloseable {
    final Stack stack = SharedStack.get();
    final String topic;
    final LogNode node;
    final ProjectorSettings settings;
    final Projector projector;
    final QueryApi api;
    final ElectoralLogProducer producer;

    RunningLog(String name) {
        this(name, null);
    }

    /** A running log whose query API takes {@code adminToken} (null: no token at all). */
    RunningLog(String name, String adminToken) {
        topic = name + "-events-" + Long.toString(System.nanoTime(), 36);
        String host = name + "-test.electoral-log.local";
        node = LogNode.on(
                        stack.kafkaBootstrap(),
                        stack.database(),
                        NoteSigner.generate(host),
                        Path.of("target/stack/streams-" + topic))
                .topics(topic, topic + ".dlq", 1)
                .projector(s -> s.withApplicationId("app-" + topic)
                        .withBatch(500, Duration.ofMillis(50))
                        .withOriginPrefix(host + "/")
                        .withKeyEncryption(KeyEncryptionKeys.generate())
                        .withCheckpointEvery(Duration.ZERO))
                .api(0, a -> {
                    QueryApiSettings open =
                            a.withAccess(new AccessSettings(Map.of(), null, null, Set.of(), Set.of(), List.of()));
                    return adminToken == null ? open : open.withAdminToken(adminToken);
                })
                .start();
        settings = node.settings();
        projector = node.projector();
        api = node.api();
        producer = node.producer();
    }

    @Override
    public void close() {
        producer.close();
        node.close();
    }
}
