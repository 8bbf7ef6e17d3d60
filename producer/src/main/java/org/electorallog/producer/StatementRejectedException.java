package org.electorallog.producer;

/** A statement that fails validation before anything is sent; the message names the field. */
public final class StatementRejectedException extends IllegalArgumentException {
    private final String field;

    public StatementRejectedException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
