package org.electorallog.core;

/**
 * A trusted checkpoint that is not a prefix of this log: its size exceeds the log's, or the log's
 * root at that size differs. Evidence of a split view or of another log; never a plain bad request.
 */
public final class LogDivergenceException extends Exception {
    private final long trustedSize;

    public LogDivergenceException(long trustedSize, String message) {
        super(message);
        this.trustedSize = trustedSize;
    }

    public long trustedSize() {
        return trustedSize;
    }
}
