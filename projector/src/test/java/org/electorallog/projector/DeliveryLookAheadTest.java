package org.electorallog.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.schemas.EmbeddedSchemaRegistry;
import org.electorallog.schemas.StatementCodec;
import org.electorallog.store.Migrations;
import org.electorallog.store.PartitionLease;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.Records;
import org.junit.jupiter.api.Test;

/**
 * Invariant 3 (no statement doubled) with decision 79: a batch's delivery IDs are looked up while the
 * batch before it is still being written, in a transaction the look-ahead cannot see. Here that
 * batch is held open on one connection while the next batch is looked up on another, so the order
 * is the one the projector's two threads may take, without timing.
 */
class DeliveryLookAheadTest {
    private static final StatementCodec CODEC = StatementCodec.embedded();
    private static final SigningKey SENDER = SigningKey.generate();
    private static final String BOARD = "ahead-board";

    @Test
    void aRepeatOfTheBatchInFlightIsDroppedOnceThatBatchCommits() throws Exception {
        List<String> stored = run(true);
        List<String> expected = new ArrayList<>(ids(0, 20));
        expected.addAll(ids(20, 25));
        assertEquals(expected, stored, "d-15 stored once, by the batch that was in flight");
    }

    @Test
    void aRepeatOfTheBatchInFlightIsWrittenWhenThatBatchRollsBack() throws Exception {
        List<String> stored = run(false);
        List<String> expected = new ArrayList<>(ids(0, 10));
        expected.add("d-15");
        expected.addAll(ids(20, 25));
        assertEquals(expected, stored, "d-15 stored by the later batch, the earlier one having rolled back");
    }

    /**
     * Batch 0 (d-0..d-9) committed; batch 1 (d-10..d-19) written on connection A and left open; batch
     * 2 (d-5 again, d-15 again, d-20..d-24) looked up ahead on connection B; batch 1 then committed
     * or rolled back; batch 2 written on B with the look-ahead. Returns the board's stored delivery
     * IDs in tree order.
     */
    private static List<String> run(boolean inFlightCommits) throws Exception {
        ProjectorHarness h = new ProjectorHarness("ahead", 1);
        String url = h.createDatabase("ahead_" + System.nanoTime());
        DatabaseAddress db = h.stack.database();
        BatchWriter writer = new BatchWriter(
                NoteSigner.generate("test.electoral-log.local"),
                "test.electoral-log.local/",
                EmbeddedSchemaRegistry.instance(),
                Duration.ofHours(1),
                SignaturePolicy.none());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "ahead")) {
            Migrations.apply(ds);
        }
        try (HikariDataSource ds = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "ahead");
                Connection a = ds.getConnection();
                Connection b = ds.getConnection()) {
            PartitionLease lease = PartitionLease.acquire(a, h.topic, 0);
            a.setAutoCommit(false);
            Map<String, BoardProjection> boards = new HashMap<>();
            writer.write(a, lease, 0, 10, events(ids(0, 10), 0), boards, DeliveryLookAhead.NONE);
            a.commit();
            writer.committed();
            short boardId = boards.get(BOARD).boardId;

            List<PendingEvent> inFlight = events(ids(10, 20), 10);
            writer.write(a, lease, 10, 20, inFlight, boards, DeliveryLookAhead.NONE);

            List<String> next = new ArrayList<>(List.of("d-5", "d-15"));
            next.addAll(ids(20, 25));
            List<PendingEvent> batch = events(next, 20);
            DeliveryLookAhead ahead = DeliveryLookAhead.of(b, batch, inFlight, Map.of(BOARD, boardId));
            DeliveryLookAhead.Board share = ahead.board(BOARD, boardId);
            assertEquals(Map.of(key("d-5"), "d-5"), share.stored(), "the look-ahead sees batch 0, not batch 1");
            assertEquals(Set.of(key("d-15")), share.inFlight(), "d-15 is marked as held by the batch in flight");
            assertNull(
                    ahead.board(BOARD, (short) (boardId + 1)), "a look-ahead holds for the board ID it was made for");

            long expectedOffset;
            if (inFlightCommits) {
                a.commit();
                writer.committed();
                expectedOffset = 20;
            } else {
                a.rollback();
                writer.rolledBack();
                boards.clear();
                expectedOffset = 10;
            }
            b.setAutoCommit(false);
            BatchWriter.Result r = writer.write(b, lease, expectedOffset, 27, batch, boards, ahead);
            b.commit();
            writer.committed();
            assertEquals(inFlightCommits ? 5 : 6, r.written(), "records written by the batch");
            assertEquals(inFlightCommits ? 2 : 1, r.duplicates(), "repeats dropped by the batch");
            return ResilienceTest.deliveryIds(url, db, BOARD);
        }
    }

    private static List<String> ids(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("d-" + i);
        }
        return out;
    }

    private static List<PendingEvent> events(List<String> deliveryIds, long firstOffset) throws Exception {
        List<PendingEvent> out = new ArrayList<>();
        long offset = firstOffset;
        for (String id : deliveryIds) {
            byte[] value = CODEC.encode(SignaturePolicyTest.envelope(BOARD, id, SENDER, null, null));
            out.add(new PendingEvent(CODEC.decode(value), 0, offset, 1_767_225_600_000L + offset, BOARD, value, null));
            offset++;
        }
        return out;
    }

    private static ByteBuffer key(String deliveryId) {
        return ByteBuffer.wrap(Records.deliveryKey(deliveryId));
    }
}
