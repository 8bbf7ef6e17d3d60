package org.electorallog.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The projection's PostgreSQL transactions, opened, committed and rolled back here and nowhere
 * else (issue 44): a caller says what one transaction does and whether it is to be kept, never
 * calls {@code commit} or {@code rollback} itself. Every failure rolls the transaction back and is
 * thrown to the caller as it came (the projector classifies it: {@code BatchFailure}).
 *
 * <p>Each transaction has a connection of its own from the pool, in PostgreSQL's default READ
 * COMMITTED isolation (what {@link Boards#create}'s lock relies on).
 */
public final class Transactions {
    private final DataSource db;

    public Transactions(DataSource db) {
        this.db = db;
    }

    /** What one transaction does on its connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** What one transaction does, and whether it is kept ({@link Decision#keep}) or not. */
    @FunctionalInterface
    public interface Choice<T> {
        Decision<T> run(Connection c) throws SQLException;
    }

    /** A transaction's value, and whether it is to be committed or rolled back. */
    public record Decision<T>(T value, boolean commit) {
        public static <T> Decision<T> keep(T value) {
            return new Decision<>(value, true);
        }

        public static <T> Decision<T> discard(T value) {
            return new Decision<>(value, false);
        }
    }

    /**
     * What a {@link #decide} transaction came to: its value, whether it was committed, and how long
     * its {@code COMMIT} took (0 when rolled back).
     */
    public record Outcome<T>(T value, boolean committed, long commitNanos) {}

    /** Runs {@code work} in one transaction and commits it; rolls it back when {@code work} throws. */
    public <T> T commit(Work<T> work) throws SQLException {
        return decide(c -> Decision.keep(work.run(c))).value();
    }

    /** Runs {@code work} in one transaction and always rolls it back (a rehearsal that keeps nothing). */
    public <T> T rollBack(Work<T> work) throws SQLException {
        return decide(c -> Decision.discard(work.run(c))).value();
    }

    /**
     * Runs {@code choice} in one transaction, then commits or rolls back as it decided; when it (or
     * the commit) throws, the transaction is rolled back and the failure thrown.
     */
    public <T> Outcome<T> decide(Choice<T> choice) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            Decision<T> d;
            try {
                d = choice.run(c);
                if (!d.commit()) {
                    c.rollback();
                    return new Outcome<>(d.value(), false, 0);
                }
                long committing = System.nanoTime();
                c.commit();
                return new Outcome<>(d.value(), true, System.nanoTime() - committing);
            } catch (SQLException | RuntimeException | Error e) {
                rollbackAfter(c, e);
                throw e;
            }
        }
    }

    /** Runs {@code work} on a connection in autocommit: each statement its own transaction. */
    public <T> T autocommit(Work<T> work) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(true);
            return work.run(c);
        }
    }

    private static void rollbackAfter(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // the connection is likely gone (the cause says why), and PostgreSQL drops its
            // transaction with it: the failure travels with the cause that is thrown
            cause.addSuppressed(e);
        }
    }
}
