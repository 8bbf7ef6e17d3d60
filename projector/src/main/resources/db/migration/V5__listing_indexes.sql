-- V5: the indexes of the admin listing (issue 6), within the storage budget of 1,100 bytes per
-- record with every index and tile (docs/decisions.md, "Listing indexes"). Each index serves a
-- filter by equality, newest first, and a sort by its column with keyset cursors.
--
-- Two shapes:
--  * (board_id, column, id) for columns with few values (kind, election, area): a filter's rows are
--    read in ID order straight from the index, and a sort by the column pages on (column, id).
--  * (board_id, column) for columns with a few rows per value (user, username, ballot, statement
--    time): B-tree deduplication stores one key per value with a posting list of 6-byte row
--    pointers, about a third of the (board_id, column, id) size. A filter reads the value's rows
--    (a voter's handful) and sorts them; a sort by the column is an incremental sort of each
--    value's rows by ID, reading one value group beyond the page at most.
-- Partial indexes leave out the rows without the column, so the IdP events pay nothing for the
-- election and ballot indexes.

-- The ballot locator is served by records_user below (a voter's rows, filtered to their cast votes).
DROP INDEX records_ballot_locator;

CREATE INDEX records_kind ON records (board_id, kind, id);
COMMENT ON INDEX records_kind IS 'Listing: filter by kind newest first, sort by kind (keyset on kind, id); the cast-vote export (kind 1) in ID order.';

CREATE INDEX records_user ON records (board_id, user_id) WHERE user_id IS NOT NULL;
COMMENT ON INDEX records_user IS 'Listing: filter by user ID and sort by user ID (incremental sort by ID per user); the ballot locator (a voter''s own cast votes) and capped counts by user.';

CREATE INDEX records_username ON records (board_id, username) WHERE username IS NOT NULL;
COMMENT ON INDEX records_username IS 'Listing: filter by username and sort by username (incremental sort by ID per username); capped counts by username.';

CREATE INDEX records_ballot ON records (board_id, ballot_id) WHERE ballot_id IS NOT NULL;
COMMENT ON INDEX records_ballot IS 'Listing: filter by ballot ID and sort by ballot ID; capped counts by ballot ID. Only records with a ballot (cast votes) are indexed.';

CREATE INDEX records_election ON records (board_id, election_id, id) WHERE election_id IS NOT NULL;
COMMENT ON INDEX records_election IS 'Listing: filter by election newest first, sort by election (keyset on election_id, id). Only records of an election are indexed.';

CREATE INDEX records_area ON records (board_id, area_id, id) WHERE area_id IS NOT NULL;
COMMENT ON INDEX records_area IS 'Listing: filter by area newest first; capped counts by area.';

CREATE INDEX records_statement_ts ON records (board_id, statement_ts);
COMMENT ON INDEX records_statement_ts IS 'Listing: sort by statement time (incremental sort by ID per instant) and a statement-time window in statement-time order; capped counts of a window.';

-- Two more counters, kept by the projector in the batch transaction like the others:
-- (kind -1, election e) = records of election e, for election-scoped counts;
-- (kind -2, '') = records with a user ID.
INSERT INTO counters (board_id, kind, election_id, n)
SELECT board_id, -1, election_id, count(*) FROM records WHERE election_id IS NOT NULL AND election_id <> ''
GROUP BY board_id, election_id
ON CONFLICT (board_id, kind, election_id) DO UPDATE SET n = EXCLUDED.n;
INSERT INTO counters (board_id, kind, election_id, n)
SELECT board_id, -2, '', count(*) FROM records WHERE user_id IS NOT NULL GROUP BY board_id
ON CONFLICT (board_id, kind, election_id) DO UPDATE SET n = EXCLUDED.n;
COMMENT ON TABLE counters IS 'Per-board counts maintained in the same transaction as the records. kind -1 = all kinds, kind -2 = records with a user ID; election_id '''' = all elections.';
