package org.electorallog.query;

/**
 * Who is calling: the highest role their credentials carry, and (for a voter) their user ID.
 *
 * @param role   the role
 * @param userId the user ID the credentials name (a voter's own records), or null
 * @param via    how they were recognised ("anonymous", "static token", "oidc")
 */
record Caller(Role role, String userId, String via) {
    static final Caller ANONYMOUS = new Caller(Role.ANONYMOUS, null, "anonymous");

    /** The attribute of a request that holds its caller. */
    static final String ATTRIBUTE = "electoral-log.caller";

    /** Whether credentials were presented and held (a token without any role is authenticated, not anonymous). */
    boolean authenticated() {
        return !"anonymous".equals(via);
    }

    boolean covers(Role needed) {
        return role.covers(needed);
    }
}
