package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.avro.LogContinuation;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.ProjectionComparison;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.Test;

/**
 * A LOG_CONTINUATION is only ever a board's first record (issue 42): as record 0 it is kept; a
 * second one in the same batch, and one sent to a board that already has records, are
 * dead-lettered {@code CONTINUATION_NOT_FIRST}, and the boards go on; a replay refuses the same.
 */
class BoardContinuationTest {
    @Test
    void aContinuationIsOnlyABoardsFirstRecord() throws Exception {
        ProjectorHarness h = new ProjectorHarness("continuation", 1);
        String suffix = Long.toString(System.nanoTime(), 36);
        String next = "next-" + suffix;
        String open = "open-" + suffix;
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("continuation_" + suffix);
        ProjectorSettings settings = h.settings.withDatabase(db.atUrl(url));
        try (ElectoralLogProducer producer =
                        ElectoralLogProducer.create(ElectoralLogProducer.defaults(h.stack.kafkaBootstrap()), h.topic);
                Projector p = Projector.start(settings)) {
            producer.publish(ProjectorHarness.statement(open, "open-0", 1_000));
            producer.publish(continuation(next, "first"));
            producer.publish(continuation(next, "second"));
            producer.publish(ProjectorHarness.statement(next, "vote-0", 1_001));
            producer.publish(continuation(open, "late"));
            producer.publish(ProjectorHarness.statement(open, "open-1", 1_002));
            producer.flush();
            h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
        }
        try (Connection c = DriverManager.getConnection(url, db.user(), db.password())) {
            BoardState n = Boards.state(c, next).orElseThrow();
            assertEquals(2, n.size(), "the first continuation and the vote");
            assertEquals(StatementKinds.LOG_CONTINUATION, BoardSealTest.kindOf(c, n, 0));
            assertEquals(2, Boards.state(c, open).orElseThrow().size());
        }
        Map<String, String> reasons = DeadLetters.reasons(h);
        assertEquals(Map.of("late", "CONTINUATION_NOT_FIRST", "second", "CONTINUATION_NOT_FIRST"), reasons);

        // a replay of the topic into a new database refuses the same continuations (BRIEF invariant 2)
        String replay = h.createDatabase("continuation_replay_" + suffix);
        try (Projector p = Projector.start(settings.withApplicationId("replay-" + h.topic)
                .withDatabase(db.atUrl(replay))
                .withStateDir(h.settings.stateDir().resolveSibling("replay-" + h.topic)))) {
            h.awaitProjected(replay, h.endOffsets(), Duration.ofMinutes(1));
        }
        try (HikariDataSource a = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "continuation-live");
                HikariDataSource b =
                        ProjectionDatabase.pool(replay, db.user(), db.password(), 2, "continuation-replay")) {
            assertEquals(List.of(), ProjectionComparison.compare(a, b), "the replay equals the live projection");
        }
    }

    static Statement continuation(String board, String deliveryId) {
        return Statement.newBuilder(BoardSealTest.seal(board, deliveryId))
                .setKind(StatementKind.LOG_CONTINUATION)
                .setBody(LogContinuation.newBuilder()
                        .setPreviousBoard("sealed-board")
                        .setPreviousSize(5)
                        .setPreviousRoot(ByteBuffer.wrap(new byte[32]))
                        .build())
                .build();
    }
}
