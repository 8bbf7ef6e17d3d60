package org.electorallog.store;

import java.sql.SQLException;

/**
 * The projection's database could not do what was asked: what the store's objects ({@link
 * Projection}, {@link LogReader}, {@link Registry}) throw instead of the JDBC driver's checked
 * exception, so no caller outside this module names {@code java.sql} (issue 62). The server's
 * SQLSTATE (PostgreSQL manual, Appendix A) comes with it when the server gave one.
 */
public final class ProjectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String sqlState;

    ProjectionException(String message, SQLException cause) {
        super(message + ": " + cause.getMessage(), cause);
        this.sqlState = cause.getSQLState();
    }

    /** The server's five-character error code, or null for a client-side failure (I/O, pool timeout). */
    public String sqlState() {
        return sqlState;
    }

    /**
     * The SQLSTATE of the first database failure in {@code t}'s cause chain (this exception or the
     * driver's), or null when none is a database failure or none carries a code.
     */
    public static String sqlStateOf(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ProjectionException p) {
                return p.sqlState;
            }
            if (c instanceof SQLException e) {
                return e.getSQLState();
            }
        }
        return null;
    }

    /**
     * "SQLSTATE xxxxx: the server's message" of the first database failure with a code in {@code
     * t}'s cause chain, or null when there is none (for logs and dead-letter reasons).
     */
    public static String serverError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException e && e.getSQLState() != null) {
                return "SQLSTATE " + e.getSQLState() + ": " + e.getMessage();
            }
        }
        return null;
    }

    /** Whether {@code t} or a cause is a failure of the projection's database. */
    public static boolean isDatabaseFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ProjectionException || c instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** A database call that may throw the driver's checked exception. */
    @FunctionalInterface
    interface Call<T> {
        T call() throws SQLException;
    }

    /** Runs {@code call}, its driver failure thrown as a {@link ProjectionException} saying {@code what} failed. */
    static <T> T wrap(String what, Call<T> call) {
        try {
            return call.call();
        } catch (SQLException e) {
            throw new ProjectionException(what, e);
        }
    }
}
