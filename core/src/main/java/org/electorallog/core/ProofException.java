package org.electorallog.core;

/** A proof, checkpoint or note that does not verify, or that is malformed. */
public class ProofException extends Exception {
    public ProofException(String message) {
        super(message);
    }

    public ProofException(String message, Throwable cause) {
        super(message, cause);
    }
}
