package org.electorallog.store;

import java.util.List;

/**
 * The statement fields the records table holds in columns of their own and indexes (V1, V4):
 * who (user ID, username), where (election, area) and which ballot. Any of them may be null.
 */
public record IndexedFields(String userId, String username, String electionId, String areaId, String ballotId) {
    /** Their column names in records, which are also their names in the API's bodies, filters and exports. */
    public static final List<String> COLUMNS = List.of("user_id", "username", "election_id", "area_id", "ballot_id");
}
