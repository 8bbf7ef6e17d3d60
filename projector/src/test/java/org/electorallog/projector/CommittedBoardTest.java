package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.core.SigningKey;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.schemas.ElectionStatements;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.store.BoardState;
import org.electorallog.store.Boards;
import org.electorallog.store.KeyStoreCopy;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlSealingKeys;
import org.junit.jupiter.api.Test;

/**
 * Issue 61 item 6, against Kafka and PostgreSQL: a board's first record in the committed form
 * switches it for good. Before it a statement in the clear is kept (the board was in the clear);
 * after it one holding a personal value is dead-lettered {@code COMMITTED_FORM_REQUIRED} and the
 * board goes on, while one without a personal value (the seal) is kept; a replay of the topic sets
 * the switch at the same record and gives the same root; a board never in the committed form keeps
 * taking statements in the clear.
 */
class CommittedBoardTest {
    private static final long DAY = 1_796_000_000_000L; // 2026-11-30

    @Test
    void aBoardInTheCommittedFormRefusesPersonalValuesInTheClearFromThenOn() throws Exception {
        ProjectorHarness h = new ProjectorHarness("committed-board", 1);
        String suffix = Long.toString(System.nanoTime(), 36);
        String board = "switched-" + suffix;
        String clear = "clear-" + suffix;
        DatabaseLogin db = h.stack.database();
        String url = h.createDatabase("switched_" + suffix);
        ProjectorSettings settings = h.settings.withDatabase(db.atUrl(url));
        try (HikariDataSource live = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "switched-live")) {
            Migrations.apply(live);
            ElectionStatements votes = new ElectionStatements(board, 7);
            try (Projector p = Projector.start(settings);
                    ElectoralLogProducer committed = ElectoralLogProducer.builder(h.stack.kafkaBootstrap())
                            .topic(h.topic)
                            .senderKey(SigningKey.generate())
                            .committedForm(new SqlSealingKeys(live))
                            .build();
                    ElectoralLogProducer plain = BoardSealTest.logsOwn(h, settings)) {
                plain.publish(ProjectorHarness.statement(board, "before", DAY)).get(); // record 0, in the clear
                for (String user : new String[] {"alice", "bob"}) { // records 1 and 2: the switch at 1
                    Statement v = votes.vote(user, DAY);
                    v.setSenderPublicKey(ByteBuffer.allocate(0));
                    committed.publish(v).get();
                }
                plain.publish(ProjectorHarness.statement(board, "after", DAY)).get(); // refused
                plain.publish(BoardSealTest.seal(board, "seal:" + board)).get(); // record 3: no personal value
                for (int i = 0; i < 3; i++) {
                    plain.publish(ProjectorHarness.statement(clear, "clear-" + i, DAY))
                            .get();
                }
                h.awaitProjected(url, h.endOffsets(), Duration.ofMinutes(1));
            }
            assertEquals(Map.of("after", "COMMITTED_FORM_REQUIRED"), DeadLetters.reasons(h));
            BoardState live0;
            try (Connection c = live.getConnection()) {
                live0 = Boards.state(c, board).orElseThrow();
                assertEquals(4, live0.size(), "before, alice, bob, the seal");
                assertEquals(1L, live0.committedFrom(), "switched at its first record in the committed form");
                BoardState other = Boards.state(c, clear).orElseThrow();
                assertEquals(3, other.size(), "a board in the clear takes statements in the clear");
                assertNull(other.committedFrom());
            }

            String replayUrl = h.createDatabase("switched_replay_" + suffix);
            try (HikariDataSource replay =
                    ProjectionDatabase.pool(replayUrl, db.user(), db.password(), 2, "switched-replay")) {
                Migrations.apply(replay);
                KeyStoreCopy.copy(live, replay);
                try (Projector p = Projector.start(settings.withApplicationId("replay-" + h.topic)
                        .withDatabase(db.atUrl(replayUrl))
                        .withStateDir(h.settings.stateDir().resolveSibling("replay-" + h.topic)))) {
                    h.awaitProjected(replayUrl, h.endOffsets(), Duration.ofMinutes(1));
                }
                try (Connection c = replay.getConnection()) {
                    BoardState again = Boards.state(c, board).orElseThrow();
                    assertEquals(live0.size(), again.size());
                    assertArrayEquals(live0.root(), again.root(), "the replay refuses the same statement");
                    assertEquals(1L, again.committedFrom());
                }
            }
        }
    }
}
