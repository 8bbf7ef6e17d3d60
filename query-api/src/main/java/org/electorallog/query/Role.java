package org.electorallog.query;

import java.util.Locale;

/**
 * Who may read what (docs/security.md). The roles are ordered: each one may do everything the roles
 * below it may, so a route names the least role it needs.
 * <ul>
 *   <li>{@link #ANONYMOUS}: what public verifiability needs and nothing personal: boards,
 *       checkpoints, hash tiles, inclusion and consistency proofs, records of the kinds a deployment
 *       made public (public fields only).</li>
 *   <li>{@link #VOTER}: also their own records, and the ballot locator for their own user ID.</li>
 *   <li>{@link #OBSERVER}: also every record in full and the entry bundles: enough to audit.</li>
 *   <li>{@link #ANALYST}: also listings, counts and exports.</li>
 *   <li>{@link #ADMIN}: also audits, the verifier, and query plans.</li>
 * </ul>
 */
public enum Role {
    ANONYMOUS,
    VOTER,
    OBSERVER,
    ANALYST,
    ADMIN;

    /** Whether this role may do what {@code needed} may. */
    boolean covers(Role needed) {
        return compareTo(needed) >= 0;
    }

    /** The role's name in tokens and settings: {@code voter}, {@code observer}, ... */
    String claimValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
