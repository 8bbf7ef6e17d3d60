package org.electorallog.store;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;

/**
 * The unique constraints that no statement's content can violate, only damage to the projection or
 * a bug (issue 41): a record's ID is the board's size when it is written, a board's ID is 1 above
 * the highest under a lock ({@link Boards#create}), and a board has one state row and one row per
 * records partition. A violation of one of these is not the event's fault and must stop the
 * projector as damage, never dead-letter the statement. The delivery key's primary key
 * ({@link Deliveries#isStoredKey}) is the content's: two statements may share a delivery ID.
 */
public final class DamageConstraints {
    private DamageConstraints() {}

    /** The constraint that only damage violates and that {@code failure} (or a cause) names, if any. */
    public static String violated(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof PSQLException e
                    && "23505".equals(e.getSQLState())
                    && e.getServerErrorMessage() != null
                    && e.getServerErrorMessage().getConstraint() != null) {
                String name = e.getServerErrorMessage().getConstraint();
                if (isDamageOnly(name)) {
                    return name;
                }
            }
            if (c instanceof SQLException s && s.getNextException() != null && s.getNextException() != c) {
                String next = violated(s.getNextException());
                if (next != null) {
                    return next;
                }
            }
        }
        return null;
    }

    /**
     * Whether a unique constraint of that name is one only damage violates: the primary keys of
     * records (each partition's {@code records_pkey_<board>_<n>}, V15), boards, board_state and
     * record_partitions.
     */
    static boolean isDamageOnly(String constraint) {
        return constraint.equals("records_pkey")
                || constraint.startsWith("records_pkey_")
                || constraint.equals("boards_pkey")
                || constraint.equals("board_state_pkey")
                || constraint.equals("record_partitions_pkey");
    }
}
