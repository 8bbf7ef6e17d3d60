package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.store.KeyMaker;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.electorallog.store.SqlDataKeys;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `electoral-log keys` (issue 66): a key-encryption key file, producers' logins and their boards, a rotation. */
class KeysCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int keys(Map<String, String> environment, String... args) {
        out.reset();
        err.reset();
        KeysCommand c = new KeysCommand();
        c.environment = environment;
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new CommandLine(c).execute(args);
    }

    @Test
    void makesKeyFilesGrantsBoardsToAProducersLoginAndRotates() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "keys-");
        Path old = dir.resolve("kek-old");
        Path next = dir.resolve("kek-next");
        assertEquals(0, keys(Map.of(), "kek", "--file", old.toString()), err.toString());
        assertTrue(out.toString().contains("keep a copy offline"), out.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(old)));
        assertEquals(2, keys(Map.of(), "kek", "--file", old.toString()));
        assertTrue(err.toString().contains("never overwritten"), err.toString());
        assertEquals(2, keys(Map.of(), "kek"));
        assertTrue(err.toString().contains("--file"), err.toString());

        DatabaseLogin db = SharedStack.get().database();
        String name = "keys_cli_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute("CREATE DATABASE " + name);
        }
        String url = db.onDatabase(name).jdbcUrl();
        Map<String, String> env = new HashMap<>();
        env.put("ELECTORAL_LOG_JDBC_URL", url);
        env.put("ELECTORAL_LOG_DB_USER", db.user());
        env.put("ELECTORAL_LOG_DB_PASSWORD", db.password());
        assertEquals(2, keys(env, "list"));
        assertTrue(err.toString().contains("start the projector once"), "only the projector migrates: " + err);

        try (var pool = ProjectionDatabase.pool(url, db.user(), db.password(), 2, "keys-cli-test")) {
            Migrations.apply(pool);
            String login = "producer_cli_" + System.nanoTime();
            assertEquals(0, keys(env, "allow", "--login", login, "--board", "b1"), err.toString());
            assertTrue(out.toString().contains("created login " + login), out.toString());
            assertEquals(0, keys(env, "allow", "--login", login, "--board", "b2"), err.toString());
            assertTrue(!out.toString().contains("created"), "the login exists: " + out);
            assertEquals(0, keys(env, "list"));
            assertTrue(out.toString().contains(login + " may seal for board b1"), out.toString());
            assertTrue(out.toString().contains(login + " may seal for board b2"), out.toString());
            assertEquals(0, keys(env, "deny", "--login", login, "--board", "b2"));
            assertEquals(0, keys(env, "list"));
            assertTrue(!out.toString().contains("board b2"), out.toString());
            assertEquals(2, keys(env, "allow", "--login", login, "--board", "heads"));
            assertTrue(err.toString().contains("the log's own"), err.toString());
            assertEquals(2, keys(env, "allow", "--login", login));
            assertEquals(2, keys(env, "open"));
            assertTrue(err.toString().contains("say kek, allow, deny, list or rewrap"), err.toString());

            // a rotation: keys made under the old key, rewrapped under the new one listed first
            try (KeyMaker maker = new KeyMaker(pool, KeyEncryptionKeys.load(List.of(old)))) {
                maker.make("b1", java.time.LocalDate.of(2026, 12, 6));
            }
            assertEquals(2, keys(env, "rewrap"));
            assertTrue(err.toString().contains("ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES"), err.toString());
            assertEquals(0, keys(Map.of(), "kek", "--file", next.toString()));
            env.put("ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES", next + "," + old);
            assertEquals(0, keys(env, "rewrap"), err.toString());
            assertTrue(out.toString().contains("wrapped 1 data key(s) again"), out.toString());
            assertEquals(
                    org.electorallog.statement.DataKeys.State.PRESENT,
                    new SqlDataKeys(pool, KeyEncryptionKeys.load(List.of(next)))
                            .find("b1/2026-12-06")
                            .state(),
                    "the new key alone opens it");
        }
    }
}
