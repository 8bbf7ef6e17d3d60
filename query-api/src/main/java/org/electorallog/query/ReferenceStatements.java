package org.electorallog.query;

/**
 * The statements of the export batches, the checkpoint and the ballot locator, public so that the
 * perf harness can time and explain exactly what the API runs (the listing's own statements have the
 * admin explain endpoints).
 */
public final class ReferenceStatements {
    /** An export batch: records [?, ?) of a board in ID order, at most ? of them (board, from, to, limit). */
    public static final String EXPORT_BATCH = RecordListing.PAGE_ASC;
    /** A cast-vote export batch over records_kind (board, from, to, limit). */
    public static final String VOTES_BATCH = RecordListing.VOTES_ASC;
    /** The latest checkpoint (board). */
    public static final String CHECKPOINT = LogReader.CHECKPOINT_SQL;
    /** The ballot locator page (board, user, election, before ID, ballot or null twice, limit). */
    public static final String BALLOTS = LogReader.BALLOTS_SQL;
    /** The tiles of one proof (levels, indexes, board). */
    public static final String TILES = PgTileSource.SQL;

    private ReferenceStatements() {
    }
}
