package org.electorallog.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.electorallog.config.Configuration;
import org.electorallog.schemas.BoardName;
import org.electorallog.statement.StatementKinds;
import org.electorallog.store.Migrations;
import org.electorallog.store.Projection;
import org.electorallog.store.Registry;
import org.electorallog.store.SenderGrant;
import org.electorallog.store.SenderGrants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code electoral-log senders list|add|revoke}: the sender registry (store V9, docs/security.md
 * "Writers") from the command line, through the shared configuration's database login
 * ({@code ELECTORAL_LOG_JDBC_URL}, {@code _DB_USER}, {@code _DB_PASSWORD(_FILE)}), never a password on
 * the command line. Exit 0 when done, 2 with a one-line message otherwise.
 */
@Command(
        name = "senders",
        mixinStandardHelpOptions = true,
        description = "List, add, revoke or export the sender keys the projector accepts (the sender registry).")
public final class SendersCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "list, add, revoke or export")
    String action;

    @Parameters(index = "1", arity = "0..1", description = "revoke: the grant_id")
    Long grantId;

    @Option(names = "--key", description = "add: the sender's Ed25519 public key, base64")
    String key;

    @Option(names = "--key-file", description = "add: a file holding it (keygen sender's .pub)")
    Path keyFile;

    @Option(names = "--name", description = "add: who holds the key (a service name)")
    String name;

    @Option(names = "--board", description = "add: the board it may write, or * for every board")
    String board;

    @Option(
            names = "--kinds",
            split = ",",
            description = "add: statement kinds it may write (comma-separated), or * for every kind")
    List<String> kinds;

    @Option(
            names = "--from",
            description = "add: ISO 8601 start, 2 s from now or later (default: 2 s from now, so that the grant is "
                    + "registered before any statement it covers is judged)")
    String from;

    @Option(names = "--until", description = "add: ISO 8601 end (default open-ended)")
    String until;

    @Option(
            names = "--at",
            description = "revoke: ISO 8601 time it takes effect, 2 s from now or later (default: 2 s from now)")
    String at;

    @Option(names = "--reason", description = "revoke: why (kept with the grant)")
    String reason;

    @Option(names = "--out", description = "export: the file to write (JSON Lines; rebuild --registry reads it)")
    Path exportFile;

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            Configuration conf = Configuration.load(environment);
            try (Projection db = OwnerLogin.open(conf, 1, "senders")) {
                Registry c = db.registry();
                switch (action) {
                    case "list" -> list(c);
                    case "add" -> add(c);
                    case "revoke" -> revoke(c);
                    case "export" -> export(c);
                    default ->
                        throw new IllegalArgumentException("say list, add, revoke or export, not '" + action + "'");
                }
            }
            return 0;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("senders: " + e.getMessage());
            return 2;
        } catch (RuntimeException | IOException e) {
            err.println("senders: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return 2;
        }
    }

    private void list(Registry c) {
        List<SenderGrant> grants = c.all();
        if (grants.isEmpty()) {
            out.println("senders: the registry is empty");
        }
        for (SenderGrant g : grants) {
            out.println(describe(g));
        }
    }

    private void export(Registry c) throws IOException {
        if (exportFile == null) {
            throw new IllegalArgumentException("export needs --out FILE");
        }
        List<SenderGrant> grants = c.all();
        RegistryFile.write(exportFile, grants);
        out.println("senders: exported " + grants.size() + " grant(s) to " + exportFile);
    }

    private void add(Registry c) throws IOException {
        requireMigrated(c);
        byte[] publicKey = publicKey();
        SenderGrants.Request r = new SenderGrants.Request(
                        publicKey,
                        name,
                        board,
                        kinds,
                        OptionValues.instant("--from", from),
                        OptionValues.instant("--until", until),
                        "cli (" + System.getProperty("user.name") + ")")
                .checked(Instant.now(), StatementKinds.NAMES, BoardName::isValid);
        out.println("senders: added " + describe(c.add(r)));
    }

    private void revoke(Registry c) {
        if (grantId == null) {
            throw new IllegalArgumentException("revoke needs the grant_id (senders list shows them)");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("revoke needs --reason (it is kept with the grant)");
        }
        Instant when = SenderGrants.revocationTime(OptionValues.instant("--at", at), Instant.now());
        SenderGrant g = c.revoke(grantId, when, "cli (" + System.getProperty("user.name") + ")", reason)
                .orElse(null);
        if (g == null) {
            throw new IllegalArgumentException(c.byId(grantId)
                    .map(x -> "grant " + grantId + " was already revoked at " + x.revoked())
                    .orElse("no grant " + grantId + " (senders list shows them)"));
        }
        out.println("senders: revoked " + describe(g));
    }

    private byte[] publicKey() throws IOException {
        if ((key == null) == (keyFile == null)) {
            throw new IllegalArgumentException("add needs exactly one of --key and --key-file");
        }
        String text = key != null ? key : Files.readString(keyFile, StandardCharsets.US_ASCII);
        try {
            return Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the public key is not standard base64");
        }
    }

    /** The registry table exists from store V9 on: a projection the projector never started has none yet. */
    private static void requireMigrated(Registry c) {
        if (!c.present()) {
            throw new IllegalStateException("this database has no sender registry yet (schema below version "
                    + Migrations.latestVersion() + "): start the projector once, or run a newer build");
        }
    }

    static String describe(SenderGrant g) {
        return "grant " + g.grantId() + ": " + Base64.getEncoder().encodeToString(g.publicKey()) + " ("
                + g.senderName() + ") may write " + String.join(",", g.kinds()) + " on "
                + (g.board().equals(SenderGrant.ANY) ? "every board" : "board " + g.board()) + " from " + g.validFrom()
                + (g.validUntil() == null ? "" : " until " + g.validUntil())
                + (g.revoked() == null
                        ? ""
                        : "; revoked at " + g.revoked() + " by " + g.revokedBy() + ": " + g.revocationReason());
    }
}
