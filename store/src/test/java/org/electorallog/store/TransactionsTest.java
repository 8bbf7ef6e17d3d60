package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one place that commits and rolls back the projection's transactions (issue 44): what a
 * transaction keeps is there afterwards, what it discards or fails in is not, and the connection
 * goes back to the pool either way.
 */
class TransactionsTest {
    private static final DatabaseLogin DB = SharedStack.get().database();
    private static HikariDataSource pool;
    private static Transactions transactions;

    @BeforeAll
    static void createTable() throws Exception {
        String url = MigrationsTest.createDatabase("transactions_" + System.nanoTime());
        pool = ProjectionDatabase.pool(url, DB.user(), DB.password(), 1, "transactions-test");
        transactions = new Transactions(pool);
        transactions.autocommit(c -> c.createStatement().execute("CREATE TABLE kept (n int PRIMARY KEY)"));
    }

    @AfterAll
    static void close() {
        pool.close();
    }

    private static void insert(Connection c, int n) throws SQLException {
        c.createStatement().execute("INSERT INTO kept VALUES (" + n + ")");
    }

    private static boolean present(int n) throws SQLException {
        return transactions.autocommit(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM kept WHERE n = " + n)) {
                assertTrue(rs.next());
                return rs.getLong(1) == 1;
            }
        });
    }

    @Test
    void keptWorkIsCommittedAndDiscardedWorkIsNot() throws SQLException {
        Transactions.Outcome<String> kept = transactions.decide(c -> {
            insert(c, 1);
            return Transactions.Decision.keep("one");
        });
        assertTrue(kept.committed());
        assertEquals("one", kept.value());
        assertTrue(present(1));

        Transactions.Outcome<String> discarded = transactions.decide(c -> {
            insert(c, 2);
            return Transactions.Decision.discard("two");
        });
        assertFalse(discarded.committed());
        assertEquals(0, discarded.commitNanos());
        assertFalse(present(2), "a discarded transaction leaves nothing");

        int rolledBack = transactions.rollBack(c -> {
            insert(c, 3);
            return 3;
        });
        assertEquals(3, rolledBack);
        assertFalse(present(3), "rollBack keeps nothing");
    }

    @Test
    void aFailureRollsBackAndIsThrownAsItCame() throws SQLException {
        IllegalStateException ours = new IllegalStateException("ours");
        IllegalStateException thrown = assertThrows(
                IllegalStateException.class,
                () -> transactions.commit(c -> {
                    insert(c, 10);
                    throw ours;
                }));
        assertSame(ours, thrown);
        assertFalse(present(10));

        // PostgreSQL's refusal: the same key twice in one transaction, SQLSTATE 23505
        SQLException refused = assertThrows(
                SQLException.class,
                () -> transactions.commit(c -> {
                    insert(c, 11);
                    insert(c, 11);
                    return null;
                }));
        assertEquals("23505", refused.getSQLState());
        assertFalse(present(11));

        // the pool's one connection came back each time, out of any transaction
        int committed = transactions.commit(c -> {
            insert(c, 12);
            return 12;
        });
        assertEquals(12, committed);
        assertTrue(present(12));
    }
}
