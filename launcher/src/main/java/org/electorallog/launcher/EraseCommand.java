package org.electorallog.launcher;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.electorallog.config.Configuration;
import org.electorallog.producer.ElectoralLogProducer;
import org.electorallog.producer.PublishResult;
import org.electorallog.schemas.BoardName;
import org.electorallog.schemas.avro.Statement;
import org.electorallog.schemas.avro.StatementKind;
import org.electorallog.statement.LogStatements;
import org.electorallog.store.Deliveries;
import org.electorallog.store.Erasure;
import org.electorallog.store.Projection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code electoral-log erase}: deletes personal values that statements in the committed form
 * committed to (issue 46, docs/personal-data.md "Erasure"). By board and days it erases the data
 * keys of those days, so nobody can read the values from the topic again, and deletes the
 * projection's values and openings of those days, in one transaction; by user it deletes that
 * user's values and openings from the projection. The records, their leaves and every root stay as
 * they were; a user's erased statements are listed in the key store so that no replay stores their
 * values again. A board that is not sealed is refused unless {@code --force}: erasing during an
 * election would hide what its audit needs. Each erasure is then accounted for by a
 * PERSONAL_DATA_ERASED statement on the erasures board, published through the producer and signed
 * with the log's key, the only one the projector takes it from (what was erased, never a value:
 * {@link #statement}; decision 130). Connects as the projector does (ELECTORAL_LOG_JDBC_URL,
 * the owner's login) and publishes as {@code publish} does, then waits until the projection holds that
 * statement (issue 61 item 7: the outcome, not Kafka's ack): exit 0 done, 1 erased but the statement
 * not acknowledged or not projected in time, 2 refused or failed.
 */
@Command(
        name = "erase",
        mixinStandardHelpOptions = true,
        description = "Erase personal values of statements in the committed form: a board's days (their data keys "
                + "and the projection's values) or one user's values in the projection. Leaves, roots and proofs do "
                + "not change. A PERSONAL_DATA_ERASED statement on the erasures board says what was erased. Exit 0 "
                + "done (the statement projected), 1 erased but that statement not acknowledged or not projected in time, 2 "
                + "refused or failed.")
public final class EraseCommand implements Callable<Integer> {
    @Option(names = "--board", required = true, description = "the board")
    String board;

    @Option(names = "--from", paramLabel = "YYYY-MM-DD", description = "first UTC day to erase (with --to)")
    String from;

    @Option(names = "--to", paramLabel = "YYYY-MM-DD", description = "last UTC day to erase (with --from)")
    String to;

    @Option(names = "--user", paramLabel = "USER-ID", description = "erase this user's values instead of days")
    String user;

    @Option(names = "--force", description = "erase on a board that is not sealed")
    boolean force;

    /** The board of the accounts: the log's own (statement {@code LogStatements}, decision 130). */
    private static final String ERASURES_BOARD = LogStatements.ERASURES_BOARD;

    @Option(names = "--sender-name", defaultValue = "back-office", description = "default ${DEFAULT-VALUE}")
    String senderName;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "seconds to wait for the erasure's statement to be projected; default ${DEFAULT-VALUE}")
    int timeoutSeconds;

    @Mixin
    ProducerOptions producer = new ProducerOptions();

    /** The environment the configuration is read from (tests give their own). */
    Map<String, String> environment = System.getenv();

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() {
        try {
            return erase();
        } catch (IllegalArgumentException e) {
            err.println("erase: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("erase: " + AuditCommand.oneLine(e));
            return 2;
        }
    }

    private int erase() throws Exception {
        if (!BoardName.isValid(board)) {
            throw new IllegalArgumentException("'" + board + "' is not a board name ([a-z0-9][a-z0-9._-]{0,63})");
        }
        boolean byDays = from != null || to != null;
        if (LogStatements.reservedBoard(board)) {
            throw new IllegalArgumentException("board " + board + " is the log's own and holds no personal value");
        }
        if (byDays == (user != null)) {
            throw new IllegalArgumentException("give either --from and --to (days) or --user, not both or neither");
        }
        LocalDate first = byDays ? day("--from", from) : null;
        LocalDate last = byDays ? day("--to", to) : null;
        Configuration conf = Configuration.load(environment);
        // the producer first, so that a topic it cannot reach or a missing log key stops the command
        // before anything is erased; the account is the log's own statement, signed with its key
        try (Projection db = OwnerLogin.open(conf, 1, "erase");
                ElectoralLogProducer p = producer.logsOwn(conf).build()) {
            // the board's seal checked and its values erased in one transaction (the store's)
            Erasure.Result r = db.keyCustody().erase(board, first, last, byDays ? null : user, force);
            report(r, byDays ? "the days " + first + " to " + last : "user " + user, byDays);
            Statement account = statement(senderName, board, first, last, r, System.currentTimeMillis());
            try {
                PublishResult sent = p.publish(account).get();
                out.printf(
                        "PERSONAL_DATA_ERASED statement on board %s acknowledged (delivery ID %s, partition %d, "
                                + "offset %d)%n",
                        ERASURES_BOARD, account.getDeliveryId(), sent.partition(), sent.offset());
                return awaitProjected(db, sent);
            } catch (ExecutionException e) {
                err.println("erase: the erasure is done, but its PERSONAL_DATA_ERASED statement was not "
                        + "acknowledged (" + e.getCause().getMessage() + "): run the same command again");
                return 1;
            }
        }
    }

    /**
     * The projected outcome of the erasure's statement, not Kafka's ack (issue 61 item 7): 0 when
     * the erasures board holds it (or, for days erased again, the account an earlier run made under
     * the same delivery ID), 1 when it is not projected within the timeout.
     */
    private int awaitProjected(Projection db, PublishResult sent) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        while (System.nanoTime() < deadline) {
            // each look in autocommit: it sees what the projector committed since
            Optional<Deliveries.Projected> found = db.statement(r -> r.delivery(ERASURES_BOARD, sent.deliveryId()));
            if (found.isPresent()) {
                boolean mine = Arrays.equals(found.get().leafHash(), sent.leafHash());
                if (mine) {
                    out.printf(
                            "projected as record %d of board %s%n", found.get().record(), ERASURES_BOARD);
                } else {
                    out.printf(
                            "board %s already accounts for it: record %d holds an earlier run's statement under this "
                                    + "delivery ID (this one is dead-lettered DELIVERY_ID_REUSED)%n",
                            ERASURES_BOARD, found.get().record());
                }
                return 0;
            }
            Thread.sleep(250); // the next look at a projection the projector has not reached yet
        }
        err.println("erase: the erasure is done and its statement acknowledged, but board " + ERASURES_BOARD
                + " did not hold it within " + timeoutSeconds + " s: is the projector running, and is its signing key "
                + "this command's (ELECTORAL_LOG_SIGNING_KEY)? `electoral-log dead-letters --board "
                + ERASURES_BOARD + "` shows refused statements; running the same command again is safe");
        return 1;
    }

    private void report(Erasure.Result r, String what, boolean byDays) {
        out.printf(
                "erased %s of board %s: %d data key(s) %s, the values and openings of %,d record(s)%n",
                what, board, r.keysErased().size(), r.keysErased(), r.records());
        if (r.inTheClear() > 0) {
            out.printf(
                    "%,d record(s) of %s hold personal values in their statements (format 1, before the committed "
                            + "form): those cannot be erased without changing their leaves, and stay%n",
                    r.inTheClear(), what);
        }
        if (!byDays) {
            out.println("no replay or rebuild brings these values back (their statements are listed as erased), but "
                    + "the events in the topic stay readable to the holder of their day's data key until that day is "
                    + "erased (electoral-log erase --board " + board + " --from DAY --to DAY)");
        }
    }

    /**
     * The account of an erasure (schemas/README.md "The erasure statement"): kind PERSONAL_DATA_ERASED
     * on the erasures board, what was erased as JSON in its artifact, never a value nor the user.
     * Days have a delivery ID of their own ({@code erase:<board>:<from>:<to>}), so running the command
     * again after a lost acknowledgement logs them once; a user erasure has a random one, since one
     * derived from the user would let anyone test whether a user's data was erased.
     */
    static Statement statement(
            String senderName, String board, LocalDate from, LocalDate to, Erasure.Result r, long nowMillis) {
        Map<String, Object> account = new LinkedHashMap<>();
        account.put("erased_board", board);
        account.put("scope", from == null ? "user" : "days");
        if (from != null) {
            account.put("from", from.toString());
            account.put("to", to.toString());
            account.put("data_keys", r.keysErased());
        }
        account.put("records", r.records());
        account.put("in_the_clear", r.inTheClear());
        byte[] json;
        try {
            json = new ObjectMapper().writeValueAsBytes(account);
        } catch (IOException e) {
            throw new IllegalStateException("strings, numbers and a list always serialise", e);
        }
        return Statement.newBuilder()
                .setBoard(ERASURES_BOARD)
                .setDeliveryId(
                        LogStatements.ERASE_PREFIX + (from == null ? UUID.randomUUID() : board + ":" + from + ":" + to))
                .setKind(StatementKind.PERSONAL_DATA_ERASED)
                .setStatementTimestamp(nowMillis)
                .setSenderName(senderName)
                .setSenderPublicKey(ByteBuffer.wrap(new byte[32])) // the producer puts its sender key here
                .setArtifact(ByteBuffer.wrap(json))
                .build();
    }

    private static LocalDate day(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " is missing: days are erased from --from to --to");
        }
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " '" + value + "' is not a day (YYYY-MM-DD)");
        }
    }
}
