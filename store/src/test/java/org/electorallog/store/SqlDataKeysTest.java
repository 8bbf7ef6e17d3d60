package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.electorallog.core.DataKeys;
import org.electorallog.core.DataKeys.DataKey;
import org.electorallog.core.DataKeys.State;
import org.electorallog.infra.DatabaseAddress;
import org.electorallog.infra.SharedStack;
import org.junit.jupiter.api.Test;

/** The key store of the committed form (V18): one key per board and day, shared by every producer, and erasure. */
class SqlDataKeysTest {
    private static final DatabaseAddress DB = SharedStack.get().database();
    private static final LocalDate DAY = LocalDate.of(2026, 11, 30);

    @Test
    void oneKeyPerBoardAndDayWhoeverAsksFirst() throws Exception {
        String url = MigrationsTest.createDatabase("data_keys_" + System.nanoTime());
        try (HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 4, "data-keys-test")) {
            Migrations.apply(ds);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<DataKey>> asked = pool.invokeAll(List.of(
                    () -> new SqlDataKeys(ds).forDay("b", DAY),
                    () -> new SqlDataKeys(ds).forDay("b", DAY),
                    () -> new SqlDataKeys(ds).forDay("b", DAY),
                    () -> new SqlDataKeys(ds).forDay("b", DAY)));
            pool.shutdown();
            DataKey first = asked.get(0).get();
            assertEquals("b/2026-11-30", first.id());
            for (Future<DataKey> f : asked) {
                assertArrayEquals(first.key(), f.get().key(), "four concurrent producers share the day's key");
            }
            SqlDataKeys keys = new SqlDataKeys(ds);
            assertNotEquals(first.id(), keys.forDay("b", DAY.plusDays(1)).id(), "the next day has a key of its own");
            assertTrue(
                    !java.util.Arrays.equals(first.key(), keys.forDay("c", DAY).key()), "and another board");

            DataKeys.Lookup found = keys.find("b/2026-11-30");
            assertEquals(State.PRESENT, found.state());
            assertArrayEquals(first.key(), found.key().key());
            assertEquals(State.UNKNOWN, keys.find("b/2026-12-25").state());

            // erasure (what electoral-log erase does): the row stays, the key goes
            try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                st.executeUpdate(
                        "UPDATE personal_keys.data_keys SET key = NULL, erased = now() WHERE key_id = 'b/2026-11-30'");
            }
            SqlDataKeys fresh = new SqlDataKeys(ds);
            assertEquals(State.ERASED, fresh.find("b/2026-11-30").state());
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> fresh.forDay("b", DAY));
            assertTrue(refused.getMessage().contains("was erased"), refused.getMessage());
            keys.forget();
            assertEquals(State.ERASED, keys.find("b/2026-11-30").state(), "a forgotten key is read again");
        }
    }
}
