package org.electorallog.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.statement.ContentKeys;
import org.electorallog.statement.DataKeys;
import org.electorallog.statement.DataKeys.State;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.statement.PersonalOpenings;
import org.electorallog.statement.SealingKeys.SealingKey;
import org.junit.jupiter.api.Test;

/**
 * The committed form's key store since V24 (issue 66, decision 128), each test playing the attacker
 * with a real PostgreSQL: the log makes the keys and keeps them wrapped; a producer's own login gets
 * public halves of its own boards' keys and nothing else; a key made before V24 is wrapped at start;
 * rotation of the key-encryption key; erasure by key ID.
 */
class KeyStoreTest {
    private static final DatabaseLogin DB = SharedStack.get().database();
    private static final LocalDate DAY = LocalDate.of(2026, 11, 30);

    private static HikariDataSource fresh(String name) throws Exception {
        String url = MigrationsTest.createDatabase(name + "_" + System.nanoTime());
        HikariDataSource ds = ProjectionDatabase.pool(url, DB.user(), DB.password(), 6, "key-store-test");
        Migrations.apply(ds);
        return ds;
    }

    @Test
    void theLogMakesOneKeyPerBoardAndDayAndADumpWithoutTheKeyEncryptionKeyOpensNothing() throws Exception {
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        try (HikariDataSource ds = fresh("keys_made");
                KeyMaker maker = new KeyMaker(ds, kek)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<SealingKey>> asked = pool.invokeAll(List.of(
                    () -> maker.make("b", DAY),
                    () -> maker.make("b", DAY),
                    () -> maker.make("b", DAY),
                    () -> maker.make("b", DAY)));
            pool.shutdown();
            SealingKey first = asked.get(0).get();
            assertEquals("b/2026-11-30", first.id());
            for (Future<SealingKey> f : asked) {
                assertArrayEquals(
                        first.publicKey(), f.get().publicKey(), "four concurrent askers get the day's one key");
            }
            assertFalse(
                    Arrays.equals(
                            first.publicKey(), maker.make("b", DAY.plusDays(1)).publicKey()),
                    "next day");
            assertFalse(Arrays.equals(first.publicKey(), maker.make("c", DAY).publicKey()), "another board");

            DataKeys.Lookup found = new SqlDataKeys(ds, kek).find("b/2026-11-30");
            assertEquals(State.PRESENT, found.state());
            assertArrayEquals(
                    first.publicKey(), ContentKeys.publicKeyOf(found.key().privateKey()));
            assertNull(found.key().legacyKey());
            assertEquals(
                    State.UNKNOWN, new SqlDataKeys(ds, kek).find("b/2026-12-25").state());

            // the dump: every byte of the row, none of them the private half; without the key-encryption key it stays
            // shut
            byte[] row = rowBytes(ds, "b/2026-11-30");
            byte[] secret = found.key().privateKey();
            for (int i = 0; i + 32 <= row.length; i++) {
                assertFalse(Arrays.equals(secret, Arrays.copyOfRange(row, i, i + 32)), "the private half in the clear");
            }
            IllegalStateException shut = assertThrows(
                    IllegalStateException.class,
                    () -> new SqlDataKeys(ds, KeyEncryptionKeys.generate()).find("b/2026-11-30"));
            assertTrue(shut.getMessage().contains("not configured"), shut.getMessage());
            assertThrows(
                    IllegalStateException.class,
                    () -> new SqlDataKeys(ds, KeyEncryptionKeys.NONE).find("b/2026-11-30"));

            // erasure: the row stays, the secret goes, and the key is never made again
            try (Connection c = ds.getConnection()) {
                Erasure.Result r = Erasure.days(c, (short) 1, "b", DAY, DAY);
                assertEquals(List.of("b/2026-11-30"), r.keysErased());
            }
            assertEquals(
                    State.ERASED, new SqlDataKeys(ds, kek).find("b/2026-11-30").state());
            IllegalStateException erased = assertThrows(IllegalStateException.class, () -> maker.make("b", DAY));
            assertTrue(erased.getMessage().contains("was erased"), erased.getMessage());
        }
    }

    @Test
    void aProducersOwnLoginGetsPublicKeysOfItsBoardsOnlyAndCanNeitherReadNorPlantAKey() throws Exception {
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        String loginA = "producer_a_" + System.nanoTime();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        try (HikariDataSource ds = fresh("keys_producers");
                KeyMaker maker = new KeyMaker(ds, kek)) {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                assertTrue(ProducerLogins.allow(c, loginA, null, "board-a"), "the login is created");
                c.commit();
                assertEquals(List.of(new ProducerLogins.Grant(loginA, "board-a")), ProducerLogins.all(c));
                assertThrows(IllegalArgumentException.class, () -> ProducerLogins.allow(c, loginA, null, "heads"));
                assertThrows(
                        IllegalArgumentException.class, () -> ProducerLogins.allow(c, "electoral_log_x", null, "b"));
                assertThrows(IllegalArgumentException.class, () -> ProducerLogins.allow(c, "a; DROP", null, "b"));
            }
            maker.start(); // the projector's part: makes the keys producers ask for
            String url = ds.getJdbcUrl();
            try (HikariDataSource asA = ProjectionDatabase.pool(url, loginA, "", 2, "producer-a")) {
                SealingKey mine = new SqlSealingKeys(asA).forDay("board-a", today);
                assertEquals(DataKeys.id("board-a", today), mine.id());
                assertArrayEquals(
                        maker.make("board-a", today).publicKey(),
                        mine.publicKey(),
                        "the log's key, asked for and made");

                // another board's key: refused, saying how to grant it, and nothing of board-b is made
                IllegalStateException other = assertThrows(
                        IllegalStateException.class, () -> new SqlSealingKeys(asA).forDay("board-b", today));
                assertTrue(other.getMessage().contains("may not write board board-b"), other.getMessage());
                assertTrue(other.getMessage().contains("keys allow"), other.getMessage());
                // a day far off: refused (no planting of future days)
                IllegalStateException far = assertThrows(
                        IllegalStateException.class,
                        () -> new SqlSealingKeys(asA).forDay("board-a", today.plusDays(30)));
                assertTrue(far.getMessage().contains("before tomorrow (UTC) is over"), far.getMessage());

                // the tables themselves: no read of a secret or a public half, no insert, no change
                String day = "'" + today.plusDays(1) + "'";
                for (String sql : List.of(
                        "SELECT wrapped FROM personal_keys.data_keys",
                        "SELECT public_key FROM personal_keys.data_keys",
                        "INSERT INTO personal_keys.data_keys (key_id, board, day, public_key, wrapped, kek_id) VALUES "
                                + "('board-b/" + today.plusDays(1) + "', 'board-b', " + day + ", '\\x" + "41".repeat(32)
                                + "', '\\x00', 'x')",
                        "UPDATE personal_keys.data_keys SET erased = now()",
                        "DELETE FROM personal_keys.data_keys",
                        "INSERT INTO personal_keys.key_requests (board, day, requested_by) VALUES ('board-b', " + day
                                + ", 'x')",
                        "INSERT INTO personal_keys.producer_boards (login, board) VALUES ('" + loginA + "', 'board-b')",
                        "DELETE FROM personal_keys.erased_statements",
                        "SELECT count(*) FROM records")) {
                    assertEquals("42501", sqlState(asA, sql), sql);
                }
            }
            assertEquals(0, count(ds, "SELECT count(*) FROM personal_keys.data_keys WHERE board = 'board-b'"));

            // denied: the login can no longer ask
            try (Connection c = ds.getConnection()) {
                assertTrue(ProducerLogins.deny(c, loginA, "board-a"));
            }
            try (HikariDataSource asA = ProjectionDatabase.pool(url, loginA, "", 1, "producer-a")) {
                assertThrows(IllegalStateException.class, () -> new SqlSealingKeys(asA).forDay("board-a", today));
            }
        }
    }

    @Test
    void aKeyMadeBeforeV24IsWrappedAndStillOpensWhatItSealed() throws Exception {
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        byte[] aes = PersonalOpenings.newKey();
        try (HikariDataSource ds = fresh("keys_legacy");
                KeyMaker maker = new KeyMaker(ds, kek)) {
            try (Connection c = ds.getConnection();
                    PreparedStatement ps =
                            c.prepareStatement("INSERT INTO personal_keys.data_keys (key_id, board, day, "
                                    + "key) VALUES ('b/2026-11-30', 'b', '2026-11-30', ?)")) {
                ps.setBytes(1, aes);
                assertEquals(1, ps.executeUpdate());
            }
            DataKeys.Lookup before = new SqlDataKeys(ds, kek).find("b/2026-11-30");
            assertArrayEquals(aes, before.key().legacyKey());
            assertNull(before.key().privateKey());

            assertEquals(1, maker.convertLegacy());
            assertEquals(0, maker.convertLegacy(), "once");
            assertEquals(0, count(ds, "SELECT count(*) FROM personal_keys.data_keys WHERE key IS NOT NULL"));
            DataKeys.Lookup after = new SqlDataKeys(ds, kek).find("b/2026-11-30");
            assertArrayEquals(aes, after.key().legacyKey(), "the old statements still open");
            assertArrayEquals(
                    maker.make("b", DAY).publicKey(),
                    ContentKeys.publicKeyOf(after.key().privateKey()));
        }
    }

    @Test
    void aRotatedKeyEncryptionKeyWrapsEveryKeyAndTheOldOneIsNoLongerNeeded() throws Exception {
        byte[] oldBytes = PersonalOpenings.newKey();
        byte[] nextBytes = PersonalOpenings.newKey();
        KeyEncryptionKeys old = KeyEncryptionKeys.of(List.of(oldBytes));
        KeyEncryptionKeys next = KeyEncryptionKeys.of(List.of(nextBytes));
        try (HikariDataSource ds = fresh("keys_rotation")) {
            byte[] pk;
            try (KeyMaker maker = new KeyMaker(ds, old)) {
                pk = maker.make("b", DAY).publicKey();
                maker.make("b", DAY.plusDays(1));
            }
            KeyEncryptionKeys both = KeyEncryptionKeys.of(List.of(nextBytes, oldBytes));
            try (KeyMaker maker = new KeyMaker(ds, both)) {
                assertEquals(2, maker.rewrap());
                assertEquals(0, maker.rewrap(), "every key is under the new one");
            }
            assertEquals(
                    2,
                    count(
                            ds,
                            "SELECT count(*) FROM personal_keys.data_keys WHERE kek_id = '" + next.currentId() + "'"));
            DataKeys.Lookup found = new SqlDataKeys(ds, next).find("b/2026-11-30");
            assertArrayEquals(pk, ContentKeys.publicKeyOf(found.key().privateKey()), "the new key alone opens it");
            assertThrows(IllegalStateException.class, () -> new SqlDataKeys(ds, old).find("b/2026-11-30"));
        }
    }

    @Test
    void erasureSelectsKeysByTheirIdEvenARowPlantedWithAnotherBoard() throws Exception {
        try (HikariDataSource ds = fresh("keys_planted");
                Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            // what a producer could do before V24: a row named for board b, its board column another
            st.execute("ALTER TABLE personal_keys.data_keys DISABLE TRIGGER data_keys_named");
            st.execute("INSERT INTO personal_keys.data_keys (key_id, board, day, key) VALUES ('b/2026-11-30', 'other', "
                    + "'2026-11-30', '\\x" + "41".repeat(32) + "')");
            st.execute("ALTER TABLE personal_keys.data_keys ENABLE TRIGGER data_keys_named");
            Erasure.Result r = Erasure.days(c, (short) 1, "b", DAY, DAY);
            assertEquals(List.of("b/2026-11-30"), r.keysErased(), "erased, though its board column says other");
            // and no new row can be planted so
            SQLException planted = assertThrows(
                    SQLException.class,
                    () -> st.execute("INSERT INTO personal_keys.data_keys (key_id, board, day, key) VALUES "
                            + "('b/2026-12-01', 'other', '2026-12-01', '\\x" + "41".repeat(32) + "')"));
            assertEquals("23514", planted.getSQLState());
        }
    }

    @Test
    void aRebuiltKeyStoreMissingAnErasureMadeAfterItsCopyIsReported() throws Exception {
        KeyEncryptionKeys kek = KeyEncryptionKeys.generate();
        try (HikariDataSource live = fresh("keys_live");
                HikariDataSource rebuilt = fresh("keys_rebuilt");
                KeyMaker maker = new KeyMaker(live, kek)) {
            maker.make("b", DAY);
            maker.make("b", DAY.plusDays(1));
            try (Connection c = live.getConnection();
                    Statement st = c.createStatement()) {
                st.execute("INSERT INTO personal_keys.erased_statements (leaf_hash, board) VALUES ('\\x"
                        + "11".repeat(32) + "', 'b')");
                Erasure.days(c, (short) 1, "b", DAY, DAY);
            }
            assertEquals(2, KeyStoreCopy.copy(live, rebuilt));
            assertEquals(List.of(), KeyStoreCopy.missedErasures(live, rebuilt), "the copy holds every erasure");
            assertEquals(
                    State.ERASED,
                    new SqlDataKeys(rebuilt, kek).find("b/2026-11-30").state(),
                    "an erased key stays erased");
            assertEquals(
                    State.PRESENT,
                    new SqlDataKeys(rebuilt, kek).find("b/2026-12-01").state(),
                    "a key opens there too");

            // erasures made in the live store while the rebuild replays: the rebuilt one lacks them
            try (Connection c = live.getConnection();
                    Statement st = c.createStatement()) {
                Erasure.days(c, (short) 1, "b", DAY.plusDays(1), DAY.plusDays(1));
                st.execute("INSERT INTO personal_keys.erased_statements (leaf_hash, board) VALUES ('\\x"
                        + "22".repeat(32) + "', 'b')");
            }
            assertEquals(
                    List.of("data key b/2026-12-01", "the values of statement " + "22".repeat(32)),
                    KeyStoreCopy.missedErasures(live, rebuilt));
        }
    }

    private static byte[] rowBytes(HikariDataSource ds, String keyId) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT convert_to(t::text, 'UTF8') || coalesce(wrapped, '') "
                        + "|| coalesce(public_key, '') FROM personal_keys.data_keys t WHERE key_id = ?")) {
            ps.setString(1, keyId);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getBytes(1);
            }
        }
    }

    private static long count(HikariDataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static String sqlState(HikariDataSource ds, String sql) {
        try (Connection c = ds.getConnection();
                Statement st = c.createStatement()) {
            st.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }
}
