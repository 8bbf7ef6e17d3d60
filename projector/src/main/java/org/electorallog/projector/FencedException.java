package org.electorallog.projector;

/**
 * A batch's compare-and-set on (epoch, next offset) failed: another task has taken the partition
 * (this writer is a zombie) or the stored offset moved. The batch was rolled back.
 */
public final class FencedException extends RuntimeException {
    public FencedException(String message) {
        super(message);
    }
}
