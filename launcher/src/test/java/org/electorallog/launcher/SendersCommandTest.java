package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.electorallog.config.DatabaseLogin;
import org.electorallog.infra.SharedStack;
import org.electorallog.store.Migrations;
import org.electorallog.store.ProjectionDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `electoral-log senders`: the registry from the command line, through the shared configuration. */
class SendersCommandTest {
    private static Map<String, String> env;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void database() {
        DatabaseLogin db = SharedStack.get().database();
        try (var pool = ProjectionDatabase.pool(db.jdbcUrl(), db.user(), db.password(), 2, "senders-test")) {
            Migrations.apply(pool);
        }
        env = new HashMap<>();
        env.put("ELECTORAL_LOG_JDBC_URL", db.jdbcUrl());
        env.put("ELECTORAL_LOG_DB_USER", db.user());
        env.put("ELECTORAL_LOG_DB_PASSWORD", db.password());
    }

    private int senders(Map<String, String> environment, String... args) {
        SendersCommand c = new SendersCommand();
        c.environment = environment;
        c.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        c.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new CommandLine(c).execute(args);
    }

    @Test
    void addListAndRevokeAKeyThatKeygenMade() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "senders-");
        assertEquals(0, KeygenCommandTest.keygen("sender", "--name", "voting", "--out", dir.toString()));
        String pub = Files.readString(dir.resolve("voting.pub")).strip();
        assertEquals(
                0,
                senders(
                        env,
                        "add",
                        "--key-file",
                        dir.resolve("voting.pub").toString(),
                        "--name",
                        "voting-service",
                        "--board",
                        "*",
                        "--kinds",
                        "CAST_VOTE,CAST_VOTE_ERROR"),
                err.toString());
        Matcher m = Pattern.compile("added grant (\\d+): " + Pattern.quote(pub)).matcher(out.toString());
        assertTrue(m.find(), out.toString());
        String id = m.group(1);
        out.reset();
        assertEquals(0, senders(env, "list"));
        assertTrue(
                out.toString()
                        .contains("grant " + id + ": " + pub + " (voting-service) may write "
                                + "CAST_VOTE,CAST_VOTE_ERROR on every board"),
                out.toString());
        assertEquals(0, senders(env, "revoke", id, "--reason", "rotated"), err.toString());
        assertTrue(out.toString().contains("revoked grant " + id), out.toString());
        assertEquals(2, senders(env, "revoke", id, "--reason", "again"));
        assertTrue(err.toString().contains("already revoked"), err.toString());
    }

    @Test
    void badInputExits2WithAOneLineMessage() {
        String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        assertEquals(2, senders(env, "add", "--key", key, "--name", "s", "--board", "b", "--kinds", "VOTE"));
        assertTrue(err.toString().contains("'VOTE' is no statement kind"), err.toString());
        err.reset();
        assertEquals(2, senders(env, "revoke", "1", "--reason", "r", "--at", "2020-01-01T00:00:00Z"));
        assertTrue(err.toString().contains("now or later"), err.toString());
        err.reset();
        assertEquals(2, senders(Map.of(), "list"));
        assertTrue(err.toString().contains("ELECTORAL_LOG_JDBC_URL"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }
}
