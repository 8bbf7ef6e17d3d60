package org.electorallog.query;

/** A request the API refuses: its problem type (and so its HTTP status) and a message a person can act on. */
public final class ApiException extends RuntimeException {
    private final Problem.Type type;

    public ApiException(Problem.Type type, String detail) {
        super(detail);
        this.type = type;
    }

    public Problem.Type type() {
        return type;
    }

    public int status() {
        return type.status;
    }

    static ApiException badRequest(String detail) {
        return new ApiException(Problem.Type.BAD_REQUEST, detail);
    }

    static ApiException notFound(String detail) {
        return new ApiException(Problem.Type.NOT_FOUND, detail);
    }

    static ApiException divergence(String detail) {
        return new ApiException(Problem.Type.DIVERGENCE, detail);
    }
}
