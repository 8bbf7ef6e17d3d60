package org.electorallog.launcher;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.config.Setting;
import org.electorallog.statement.KeyEncryptionKeys;
import org.electorallog.store.KeyCustody;
import org.electorallog.store.Migrations;
import org.electorallog.store.Projection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log keys kek|allow|deny|list|rewrap}: the custody of the committed form's keys
 * (docs/personal-data.md "The keys", docs/operations.md "Rotating the key-encryption key"). {@code
 * kek} writes a new key-encryption key file (mode 0600); {@code allow} and {@code deny} say which
 * boards a producer's own login may ask keys for (creating the login); {@code rewrap} wraps every
 * data key again under the first of ELECTORAL_LOG_KEY_ENCRYPTION_KEY_FILES. Connects with the
 * owner's login (ELECTORAL_LOG_JDBC_URL). Exit 0 when done, 2 with a one-line message otherwise.
 */
@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        description = "The committed form's keys: make a key-encryption key file (kek), let a producer's login ask "
                + "keys for a board (allow, deny, list), wrap every data key under the first configured "
                + "key-encryption key (rewrap).")
public final class KeysCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "kek, allow, deny, list or rewrap")
    String action;

    @Option(names = "--file", paramLabel = "FILE", description = "kek: the file to write (never overwritten)")
    Path file;

    @Option(names = "--login", description = "allow, deny: the producer's own PostgreSQL login")
    String login;

    @Option(names = "--board", description = "allow, deny: the board")
    String board;

    @Option(
            names = "--password-file",
            paramLabel = "FILE",
            description = "allow: set the login's password from this file (default: leave it; pg_hba.conf decides)")
    Path passwordFile;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            if (action.equals("kek")) {
                if (file == null) {
                    throw new IllegalArgumentException("kek needs --file FILE");
                }
                KeyEncryptionKeys k = KeyEncryptionKeys.create(file);
                out.println("keys: wrote key-encryption key " + k.currentId() + " to " + file + " (mode 0600); keep a "
                        + "copy offline: without it no data key it wraps opens");
                return 0;
            }
            Configuration conf = Configuration.load(environment);
            try (Projection projection = OwnerLogin.open(conf, 2, "keys")) {
                KeyCustody db = projection.keyCustody();
                requireMigrated(db);
                switch (action) {
                    case "allow", "deny", "list" -> grants(db);
                    case "rewrap" -> rewrap(conf, db);
                    default ->
                        throw new IllegalArgumentException(
                                "say kek, allow, deny, list or rewrap, not '" + action + "'");
                }
            }
            return 0;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("keys: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("keys: " + AuditCommand.oneLine(e));
            return 2;
        }
    }

    /** The key store of V24 exists once a projector of this build has started (only the projector migrates). */
    private static void requireMigrated(KeyCustody db) {
        if (!db.present()) {
            throw new IllegalStateException("this database has no key store of this build yet (schema below version "
                    + Migrations.latestVersion() + "): start the projector once, or run a newer build");
        }
    }

    private void grants(KeyCustody db) throws Exception {
        if (action.equals("list")) {
            var all = db.logins();
            if (all.isEmpty()) {
                out.println("keys: no producer login may ask for keys (the owner's login always may)");
            }
            all.forEach(g -> out.println(g.login() + " may seal for board " + g.board()));
            return;
        }
        if (login == null || board == null) {
            throw new IllegalArgumentException(action + " needs --login and --board");
        }
        if (action.equals("deny")) {
            out.println(
                    db.deny(login, board)
                            ? "keys: login " + login + " may no longer ask keys for board " + board
                            : "keys: login " + login + " had no grant of board " + board);
            return;
        }
        String pw = passwordFile == null
                ? null
                : Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        boolean created = db.allow(login, pw, board);
        out.println("keys: " + (created ? "created login " + login + "; " : "") + "login " + login
                + " may ask keys for board " + board + " (and open none)");
    }

    private void rewrap(Configuration conf, KeyCustody db) throws Exception {
        if (!conf.isSet(Setting.KEY_ENCRYPTION_KEY_FILES)) {
            throw new IllegalArgumentException("rewrap needs " + Setting.KEY_ENCRYPTION_KEY_FILES.env
                    + ": the new key's file first, then every key still wrapping a data key");
        }
        KeyEncryptionKeys keks = KeyEncryptionKeys.load(conf.list(Setting.KEY_ENCRYPTION_KEY_FILES).stream()
                .map(Path::of)
                .toList());
        int n = db.rewrap(keks);
        out.println("keys: wrapped " + n + " data key(s) again under key-encryption key " + keks.currentId()
                + "; the other key files can be retired once every projector lists the new one first");
    }
}
