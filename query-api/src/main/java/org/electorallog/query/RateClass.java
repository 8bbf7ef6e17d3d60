package org.electorallog.query;

/**
 * The rate-limit class of a route (issue 41): decided from the route as registered, never from the
 * request's spelling of the path (a trailing slash, a second slash), and the same for every role.
 */
enum RateClass {
    /** Inclusion proofs by ID or leaf hash, proofs from a trusted checkpoint, proof bundles, consistency, heads links. */
    PROOFS("proof"),
    /** C2SP hash tiles and entry bundles. */
    TILES("tile"),
    /** The ballot locator: up to 1,000 bundles a request. */
    BALLOTS("ballot locator"),
    /** Every other read under /boards. */
    READS("read"),
    /** Everything under /admin: listings, counts, exports, audits, the sender registry. */
    ADMIN_READS("admin"),
    /** Health, metrics, the OpenAPI document, the voter page: no database read per client. */
    NONE("unlimited");

    private final String label;

    RateClass(String label) {
        this.label = label;
    }

    /** What a 429 calls the requests it counts. */
    String label() {
        return label;
    }

    /** The class of a route, from its registered path. */
    static RateClass of(Route route) {
        String p = route.path();
        if (p.startsWith("/boards/{board}/tile/")) {
            return TILES;
        }
        if (p.equals("/boards/{board}/proof")
                || p.equals("/boards/{board}/consistency")
                || p.equals("/boards/{board}/heads-link")
                || p.equals("/boards/{board}/deliveries")
                || p.startsWith("/boards/{board}/records/{id}/proof")) {
            return PROOFS;
        }
        if (p.equals("/boards/{board}/ballots")) {
            return BALLOTS;
        }
        if (p.equals("/boards") || p.startsWith("/boards/")) {
            return READS;
        }
        if (p.startsWith("/admin/")) {
            return ADMIN_READS;
        }
        return NONE;
    }
}
