package org.electorallog.schemas;

/** Default topic names and the registry subject of the event envelope. */
public final class Topics {
    /** Where producers publish statements (key = board name). */
    public static final String EVENTS = "electoral-log.events";
    /** Where the projector sends events it cannot project, with the reason in headers. */
    public static final String DEAD_LETTERS = "electoral-log.dead-letters";
    /** Confluent subject naming (TopicNameStrategy): {@code <topic>-value}. */
    public static final String EVENTS_SUBJECT = EVENTS + "-value";

    private Topics() {}
}
