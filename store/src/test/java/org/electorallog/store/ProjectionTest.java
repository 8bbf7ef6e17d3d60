package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/**
 * The storage driver (issue 62, decision 133): a {@link Projection} owns its transactions (what a
 * {@link LogWriter} wrote is kept only when the work returns and the store commits), a refusal by
 * PostgreSQL reaches the caller as a {@link ProjectionException} with the server's SQLSTATE, and a
 * second connection reads in the snapshot another exported ({@link Projection#readIn}), not in what
 * was committed since.
 */
class ProjectionTest {
    private static final DatabaseLogin DB = SharedStack.get().database();

    private static Projection fresh(String name) throws Exception {
        String url = MigrationsTest.createDatabase(name + "_" + System.nanoTime());
        Projection p = Projection.open(new DatabaseLogin(url, DB.user(), DB.password()), 3, name);
        p.migrate();
        return p;
    }

    @Test
    void theStoreCommitsWhatTheWorkReturnedAndRollsBackWhatFailedOrWasDiscarded() throws Exception {
        try (Projection p = fresh("driver_tx")) {
            p.commit(w -> w.createBoard("kept", "log.example/kept", 0L, new byte[32]));
            assertThrows(
                    IllegalStateException.class,
                    () -> p.commit(w -> {
                        w.createBoard("failed", "log.example/failed", 0L, new byte[32]);
                        throw new IllegalStateException("the work failed after writing");
                    }));
            Transactions.Outcome<BoardRow> discarded = p.decide(w -> Transactions.Decision.discard(
                    w.createBoard("discarded", "log.example/discarded", 0L, new byte[32])));
            assertFalse(discarded.committed());
            BoardRow rehearsed = p.rollBack(w -> w.createBoard("rehearsed", "log.example/rehearsed", 0L, new byte[32]));
            assertEquals("rehearsed", rehearsed.name());

            assertEquals(List.of("kept"), p.boardNames(), "only the committed work stays");
            assertTrue(p.read(r -> r.board("kept")).isPresent());
        }
    }

    @Test
    void aRefusalByTheServerCarriesItsSqlStateAndLeavesNothingOfItsTransaction() throws Exception {
        try (Projection p = fresh("driver_refusal")) {
            p.commit(w -> w.createBoard("a", "log.example/a", 0L, new byte[32]));
            ProjectionException e = assertThrows(
                    ProjectionException.class,
                    () -> p.commit(w -> {
                        w.createBoard("b", "log.example/b", 0L, new byte[32]);
                        // the same name again: the unique index on boards.name refuses it
                        return w.createBoard("a", "log.example/a-again", 0L, new byte[32]);
                    }));
            assertEquals("23505", e.sqlState(), e.getMessage());
            assertEquals("23505", ProjectionException.sqlStateOf(new RuntimeException(e)));
            assertTrue(ProjectionException.serverError(e).startsWith("SQLSTATE 23505: "), e.getMessage());
            assertEquals(List.of("a"), p.boardNames(), "board b went with the refused transaction");
            assertNull(ProjectionException.serverError(new IllegalStateException("no database in this")));
        }
    }

    @Test
    void aSecondConnectionReadsInTheExportedSnapshotNotInWhatWasCommittedSince() throws Exception {
        try (Projection p = fresh("driver_snapshot")) {
            p.commit(w -> w.createBoard("before", "log.example/before", 0L, new byte[32]));
            List<String> seen = p.read(r -> {
                String exported = r.exportSnapshot();
                p.commit(w -> w.createBoard("after", "log.example/after", 0L, new byte[32]));
                return p.readIn(
                        exported,
                        other -> other.boards().stream()
                                .map(s -> s.board().name())
                                .toList());
            });
            assertEquals(List.of("before"), seen, "the joined snapshot is the exporter's");
            assertEquals(List.of("after", "before"), p.boardNames(), "both are committed");
        }
    }
}
