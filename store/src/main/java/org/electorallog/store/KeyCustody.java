package org.electorallog.store;

import java.time.LocalDate;
import java.util.List;
import javax.sql.DataSource;
import org.electorallog.statement.KeyEncryptionKeys;

/**
 * The operator's side of the committed form's key custody and erasure (issue 66, V24), each
 * operation in a transaction of its own, as {@code electoral-log keys} and {@code erase} run them:
 * which producer logins may ask for a board's sealing keys ({@link ProducerLogins}), the data keys
 * wrapped again under a new key-encryption key ({@link KeyMaker#rewrap}), and a sealed board's
 * personal values erased ({@link Erasure}). Failures are {@link ProjectionException}s; a request
 * the projection's state refuses is an {@link IllegalArgumentException} saying why.
 */
public final class KeyCustody {
    private final DataSource pool;
    private final Transactions db;

    KeyCustody(DataSource pool) {
        this.pool = pool;
        this.db = new Transactions(pool);
    }

    /** Whether the key store of V24 exists (a projector of this build has started: only it migrates). */
    public boolean present() {
        return ProjectionException.wrap("looking for the key store", () -> db.autocommit(ProducerLogins::present));
    }

    /** Every producer login's boards, by login then board. */
    public List<ProducerLogins.Grant> logins() {
        return ProjectionException.wrap("reading the producer logins", () -> db.autocommit(ProducerLogins::all));
    }

    /**
     * Lets {@code login} ask for board {@code board}'s sealing keys, creating the login (with
     * {@code password}, or none) when it does not exist; whether it was created.
     */
    public boolean allow(String login, String password, String board) {
        return ProjectionException.wrap(
                "granting login " + login + " board " + board,
                () -> db.commit(c -> ProducerLogins.allow(c, login, password, board)));
    }

    /** Takes board {@code board} from {@code login}; whether it had it. */
    public boolean deny(String login, String board) {
        return ProjectionException.wrap(
                "taking board " + board + " from login " + login,
                () -> db.commit(c -> ProducerLogins.deny(c, login, board)));
    }

    /** Wraps every data key again under {@code keks}' current key; how many it wrapped. */
    public int rewrap(KeyEncryptionKeys keks) {
        try (KeyMaker maker = new KeyMaker(pool, keks)) {
            return ProjectionException.wrap("wrapping the data keys again", maker::rewrap);
        }
    }

    /**
     * Erases the personal values of board {@code board}'s UTC days {@code from} to {@code to}
     * (with {@code user} null) or of user {@code user}, in one transaction with the check that the
     * board is sealed (refused when it is not, unless {@code force}: erasing during an election
     * hides what its audit needs).
     */
    public Erasure.Result erase(String board, LocalDate from, LocalDate to, String user, boolean force) {
        return ProjectionException.wrap(
                "erasing personal values of board " + board,
                () -> db.commit(c -> {
                    BoardState s = Boards.state(c, board)
                            .orElseThrow(() -> new IllegalArgumentException("there is no board '" + board + "'"));
                    if (s.sealedMillis() == null && !force) {
                        throw new IllegalArgumentException(
                                "board " + board + " is not sealed: erasing during an election "
                                        + "hides what its audit needs. Seal it first (electoral-log seal), or give --force");
                    }
                    return user == null
                            ? Erasure.days(c, s.board().id(), board, from, to)
                            : Erasure.user(c, s.board().id(), board, user);
                }));
    }
}
