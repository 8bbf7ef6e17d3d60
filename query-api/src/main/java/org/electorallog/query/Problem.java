package org.electorallog.query;

import java.util.Locale;

/**
 * An error answer as RFC 9457 "Problem Details for HTTP APIs" ({@code application/problem+json}):
 * {@code type} names the class of error (section 3.1.1), {@code title} is its fixed summary,
 * {@code status} the HTTP status, {@code detail} what went wrong with this request and what to do,
 * {@code instance} the request path. The types are listed in docs/api.md.
 */
record Problem(String type, String title, int status, String detail, String instance) {
    /** The media type of every error body (RFC 9457 section 6.1). */
    static final String MEDIA_TYPE = "application/problem+json";

    /** The classes of error, each a stable URN (RFC 9457 section 3.1.1 allows any URI; these are not dereferenced). */
    enum Type {
        BAD_REQUEST(400, "bad request"),
        UNAUTHORIZED(401, "unauthorized"),
        FORBIDDEN(403, "forbidden"),
        NOT_FOUND(404, "not found"),
        DIVERGENCE(409, "divergence"),
        CONFLICT(409, "conflict"),
        TOO_LARGE(413, "request too large"),
        TOO_MANY_REQUESTS(429, "too many requests"),
        REFUSED(400, "request refused"),
        INTERNAL(500, "internal error"),
        UNAVAILABLE(503, "service unavailable");

        final int status;
        final String title;

        Type(int status, String title) {
            this.status = status;
            this.title = title;
        }

        /** {@code urn:electoral-log:problem:<name>}, e.g. {@code urn:electoral-log:problem:not-found}. */
        String uri() {
            return "urn:electoral-log:problem:"
                    + name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    static Problem of(Type type, String detail, String instance) {
        return new Problem(type.uri(), type.title, type.status, detail, instance);
    }

    /** A refusal with a status Javalin chose (e.g. 405), typed as a refused request with that status. */
    static Problem refused(int status, String detail, String instance) {
        return new Problem(Type.REFUSED.uri(), Type.REFUSED.title, status, detail, instance);
    }
}
