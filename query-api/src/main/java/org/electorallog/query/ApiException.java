package org.electorallog.query;

/** A request the API refuses, with the HTTP status and a message a person can act on. */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String error;

    public ApiException(int status, String error, String detail) {
        super(detail);
        this.status = status;
        this.error = error;
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }

    static ApiException badRequest(String detail) {
        return new ApiException(400, "bad request", detail);
    }

    static ApiException notFound(String detail) {
        return new ApiException(404, "not found", detail);
    }
}
