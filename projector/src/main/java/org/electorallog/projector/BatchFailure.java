package org.electorallog.projector;

import org.electorallog.store.DamageConstraints;
import org.electorallog.store.ProjectionException;

/**
 * Why writing a batch failed, which decides what the projector does next (docs/architecture.md,
 * "The isolation path"):
 * <ul>
 *   <li>{@link #DATA}: PostgreSQL refused the batch's content (SQLSTATE class 22 data exception,
 *       23 integrity constraint violation, 54 program limit exceeded). The batch is split to find
 *       the event(s) at fault, which are dead-lettered with the error as the reason; the rest is
 *       projected. Our own code refuses content before a batch is written, with a domain type
 *       ({@code BadEventException} when decoding, {@link BoardWriter.Refused} for the registry and
 *       delivery-key collisions), never by throwing a JDK exception (issue 41).</li>
 *   <li>{@link #INFRASTRUCTURE}: the database or Kafka could not do the work (connection lost,
 *       PostgreSQL restarting or out of resources, serialization failure, deadlock, lock timeout,
 *       a dead letter not acknowledged), or any other exception of our own code, which may fail
 *       every event alike. Retried with backoff; never dead-letters anything.</li>
 *   <li>{@link #FENCED}: another task took the partition (epoch check). This task stops writing.</li>
 *   <li>{@link #STOP}: the projection itself is damaged or cannot go on without an operator: among
 *       others a unique constraint that no content can violate ({@link DamageConstraints}).</li>
 * </ul>
 */
enum BatchFailure {
    DATA,
    INFRASTRUCTURE,
    FENCED,
    STOP;

    static BatchFailure of(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof FencedException) {
                return FENCED;
            }
            if (c instanceof ProjectionStoppedException) {
                return STOP;
            }
            if (c instanceof DeadLetterPublisher.DeadLetterNotSentException) {
                return INFRASTRUCTURE;
            }
        }
        if (DamageConstraints.violated(t) != null) {
            return STOP;
        }
        if (ProjectionException.isDatabaseFailure(t)) {
            return ofSqlState(ProjectionException.sqlStateOf(t));
        }
        // anything else (a bug that throws IllegalArgumentException or NullPointerException, a Kafka
        // client failure) could fail every event alike, and isolating it would dead-letter good
        // statements: retried, then the thread is replaced, visibly, with nothing dead-lettered
        return INFRASTRUCTURE;
    }

    /** PostgreSQL error codes (Appendix A of the PostgreSQL manual) by class. */
    static BatchFailure ofSqlState(String state) {
        if (state == null || state.length() != 5) {
            return INFRASTRUCTURE; // a client-side failure (I/O, pool timeout): no server verdict on the data
        }
        return switch (state.substring(0, 2)) {
            case "22", "23", "54" -> DATA;
            case "XX" -> STOP; // internal error, data corrupted, index corrupted
            default ->
                INFRASTRUCTURE; // 08 connection, 40 rollback (serialization, deadlock), 53 resources, 55 lock, 57
            // shutdown, ...
        };
    }
}
