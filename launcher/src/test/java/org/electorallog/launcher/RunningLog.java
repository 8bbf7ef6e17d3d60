package org.electorallog.launcher;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.infra.Stack;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.EventsTopic;
import org.electorallog.projector.Projector;
import org.electorallog.projector.ProjectorSettings;
import org.electorallog.query.AccessSettings;
import org.electorallog.query.QueryApi;
import org.electorallog.query.QueryApiSettings;

/**
 * A log for a command's test: a topic of its own (and its dead-letter topic) on the shared stack, a
 * projector signing a checkpoint every batch, a query API without credentials over the shared
 * database, and a producer of the topic.
 */
final class RunningLog implements AutoCloseable {
    final Stack stack = SharedStack.get();
    final String topic;
    final ProjectorSettings settings;
    final Projector projector;
    final QueryApi api;
    final ElectoralLogProducer producer;

    RunningLog(String name) {
        topic = name + "-events-" + Long.toString(System.nanoTime(), 36);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic, 1, (short) 1);
        EventsTopic.ensure(stack.kafkaBootstrap(), topic + ".dlq", 1, (short) 1);
        settings = DeadLettersCommandTest.projectorSettings(stack, topic, name + "-test.electoral-log.local")
                .withCheckpointEvery(Duration.ZERO);
        DatabaseLogin db = stack.database();
        projector = Projector.start(settings);
        api = QueryApi.start(QueryApiSettings.publicOnly(db, 0)
                .withAccess(new AccessSettings(java.util.Map.of(), null, null, Set.of(), Set.of(), List.of())));
        producer = ElectoralLogProducer.create(ElectoralLogProducer.defaults(stack.kafkaBootstrap()), topic);
    }

    @Override
    public void close() {
        producer.close();
        api.close();
        projector.close();
    }
}
