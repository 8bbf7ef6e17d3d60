package org.electorallog.projector;

/**
 * The projection cannot go on without an operator: events were deleted from Kafka before they were
 * projected, the events topic changed its partition count under existing boards, or the stored tree
 * is damaged. The projector stops (its Kafka Streams client shuts down) rather than skip anything;
 * the message names what is wrong and what to do.
 */
public final class ProjectionStoppedException extends IllegalStateException {
    public ProjectionStoppedException(String message) {
        super(message);
    }
}
