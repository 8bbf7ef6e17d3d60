-- V5: the indexes of the admin listing (issue 6), within the storage budget of 1,100 bytes per
-- record with every index and tile (docs/decisions.md, "Listing indexes and the storage budget").
-- Each index serves a filter by equality, newest first, and a sort by its column with keyset cursors.
-- To make room, the row and the dedup index shrink first (measured with perf StorageReport):
--  * sender keys (33 bytes a row) move to a senders table; a row keeps a 4-byte sender_id;
--  * the delivery-ID unique index keys on a 16-byte SHA-256 prefix of the ID instead of the text
--    (a UUID is 37 bytes), 26 bytes a record less.
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

CREATE TABLE senders (
    sender_id  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- what records.sender_id holds
    public_key bytea   NOT NULL UNIQUE                              -- the sender's Ed25519 public key; UNIQUE serves key -> sender_id
);
COMMENT ON TABLE senders IS 'Each sender key once. Serves the projector''s key -> sender_id lookup (one per batch), records'' sender keys by join, and the listing''s sender filter.';

ALTER TABLE records ADD COLUMN sender_id integer;
INSERT INTO senders (public_key) SELECT DISTINCT sender_key FROM records ORDER BY 1;
UPDATE records r SET sender_id = s.sender_id FROM senders s WHERE s.public_key = r.sender_key;
ALTER TABLE records ALTER COLUMN sender_id SET NOT NULL;
COMMENT ON COLUMN records.sender_id IS 'The sender''s key in senders. No foreign key: COPY would check it row by row; the audit checks that every sender_id resolves and matches the statement''s sender key.';

-- The analyst view read the key from the row; it now joins senders.
CREATE OR REPLACE VIEW analyst_records AS
SELECT b.name AS board, r.id, r.created, r.statement_ts, k.name AS kind, r.user_id, r.username, r.election_id,
       r.area_id, r.ballot_id, r.delivery_id, encode(s.public_key, 'hex') AS sender_key,
       length(r.statement) AS statement_bytes, r.kafka_partition, r.kafka_offset
FROM records r
JOIN boards b USING (board_id)
JOIN senders s USING (sender_id)
JOIN statement_kinds k ON k.kind = r.kind;
ALTER TABLE records DROP COLUMN sender_key;

-- The delivery-ID key: the first 16 bytes of SHA-256 over the ID's UTF-8 bytes. IMMUTABLE holds
-- because a database's encoding never changes. The projector computes the same bytes in Java
-- (BatchWriter.deliveryKey) to look a batch up, and compares the full IDs of any match: two IDs
-- with one key are a collision, dead-lettered, never a silent drop.
CREATE FUNCTION delivery_key(delivery_id text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN substring(sha256(convert_to(delivery_id, 'UTF8')) FROM 1 FOR 16);
COMMENT ON FUNCTION delivery_key(text) IS 'The 16-byte key of a delivery ID in records_delivery_id.';
DROP INDEX records_delivery_id;
CREATE UNIQUE INDEX records_delivery_id ON records (board_id, delivery_key(delivery_id));
COMMENT ON INDEX records_delivery_id IS 'Dedup by delivery ID: the projector looks up a batch''s delivery keys here; unique, so a double cannot be stored.';

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
