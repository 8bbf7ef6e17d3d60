-- V15: records range-partitioned per board by ID (issue 17, decision 86).
--
-- Why: a board's randomly keyed indexes (user, username, ballot, leaf hash, delivery key) take each
-- new record at a random place. Once they outgrow shared buffers, almost every insert evicts a dirty
-- page and reads another, and the rate falls with the board's size (at 15M-20M records PostgreSQL's
-- own COPY had fallen to 68 % of its rate at 1M). Partitioned by ID, only the live partition's
-- indexes take inserts, and they stay small and hot whatever the board's size; the older partitions
-- are only read.
--
-- What cannot be partitioned is uniqueness: PostgreSQL enforces a unique index only within a
-- partition unless it contains the partition key. The delivery keys therefore move to their own
-- table, deliveries, whose primary key is the board-wide dedup (and what a repeat runs into).
--
-- The projector attaches the next partition of a board before a batch writes past the last one
-- (store RecordPartitions), in the batch's transaction; record_partitions lists them, and
-- record_partitioning holds the width of the next one. Existing records are moved here.

CREATE TABLE record_partitioning (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),  -- one row
    width    bigint  NOT NULL CHECK (width > 0)                  -- record IDs a new partition holds
);
COMMENT ON TABLE record_partitioning IS 'The width (record IDs) of a board''s next records partition; read by the projector when it attaches one (RecordPartitions.WIDTH_SQL). Changing it affects only partitions attached afterwards.';
-- 2^20: at 20M records a board has 20 partitions, and the random indexes of the live one hold about 90 MB (86 bytes a record at 20M)
INSERT INTO record_partitioning (width) VALUES (1048576);

CREATE TABLE record_partitions (
    board_id smallint NOT NULL,           -- the board whose records it holds
    first_id bigint   NOT NULL,           -- it holds record IDs first_id .. end_id - 1
    end_id   bigint   NOT NULL CHECK (end_id > first_id),
    name     text     NOT NULL UNIQUE,    -- the partition's table: records_<board_id>_<ordinal>
    PRIMARY KEY (board_id, first_id)      -- serves the board's covered end (RecordPartitions.END_SQL) and the listing of its partitions
);
COMMENT ON TABLE record_partitions IS 'The partitions of records, one row per board and ID range, written in the transaction that attaches the partition. Serves the projector''s check that a batch''s IDs have a partition and the storage report.';

-- The old table and its indexes step aside; the views that read it are re-pointed below.
ALTER TABLE records RENAME TO records_unpartitioned;
ALTER TABLE records_unpartitioned RENAME CONSTRAINT records_pkey TO records_unpartitioned_pkey;
ALTER INDEX records_delivery_id RENAME TO records_unpartitioned_delivery_id;
ALTER INDEX records_kind RENAME TO records_unpartitioned_kind;
ALTER INDEX records_user RENAME TO records_unpartitioned_user;
ALTER INDEX records_username RENAME TO records_unpartitioned_username;
ALTER INDEX records_ballot RENAME TO records_unpartitioned_ballot;
ALTER INDEX records_election RENAME TO records_unpartitioned_election;
ALTER INDEX records_statement_ts RENAME TO records_unpartitioned_statement_ts;
ALTER INDEX records_leaf_hash RENAME TO records_unpartitioned_leaf_hash;

-- Fixed-width columns first, widest first, so that no row pays alignment padding between them
-- (the old order padded 6 bytes after board_id and up to 7 more before kafka_offset and sender_id).
CREATE TABLE records (
    id               bigint      NOT NULL,   -- 0,1,2.. per board: the leaf index in the Merkle tree
    created          timestamptz NOT NULL,   -- from the Kafka record timestamp, never decreasing per board (so a time window is an ID range)
    statement_ts     timestamptz NOT NULL,   -- statement time as the producer stated it
    kafka_offset     bigint      NOT NULL,   -- where the event lives in the events topic (with kafka_partition)
    schema_id        integer     NOT NULL,   -- writer schema of the original event (see writer_schemas)
    kafka_partition  integer     NOT NULL,
    sender_id        integer     NOT NULL,   -- the sender's key in senders
    board_id         smallint    NOT NULL,
    kind             smallint    NOT NULL,   -- statement kind code (schemas StatementKinds)
    user_id          text,
    username         text,
    election_id      text,
    area_id          text,
    ballot_id        text,
    delivery_id      text        NOT NULL,   -- producer-chosen, unique per board (deliveries)
    event_type       text,                   -- IDP_USER_EVENT body event_type
    error            text,                   -- IDP_USER_EVENT and CAST_VOTE_ERROR body error
    sender_signature bytea,                  -- Ed25519 by the sender over statement, if the event carried one
    system_signature bytea,                  -- Ed25519 by the voting system over statement, if the event carried one
    statement        bytea       NOT NULL    -- canonical statement bytes: the log entry whose leaf hash is in the tree
) PARTITION BY RANGE (board_id, id);
COMMENT ON TABLE records IS 'One row per projected statement, range-partitioned per board by ID (record_partitions). Canonical bytes are kept so the database can re-derive every leaf.';
COMMENT ON COLUMN records.sender_signature IS 'Ed25519 signature by the sender''s key over the canonical statement bytes, if the event carried one.';
COMMENT ON COLUMN records.system_signature IS 'Ed25519 signature by the voting system over the canonical statement bytes, if the event carried one.';
COMMENT ON COLUMN records.sender_id IS 'The sender''s key in senders. No foreign key: COPY would check it row by row; the audit checks that every sender_id resolves and matches the statement''s sender key.';
COMMENT ON COLUMN records.event_type IS 'The identity-provider event type from the statement body (kind IDP_USER_EVENT), for analyst_idp_events; NULL for other kinds and for records projected before V11 (a rebuild fills it).';
COMMENT ON COLUMN records.error IS 'The error text from the statement body (kinds IDP_USER_EVENT and CAST_VOTE_ERROR), for the analyst views; NULL otherwise and for records projected before V11.';

-- The indexes of V5 and V10 as they were; each partition has its own copy, named
-- <index>_<board>_<ordinal> (RecordPartitions). Two lose their leading board_id, as within a
-- partition it is one value and a query's board_id = ? picks the board's partitions (pruning): the
-- primary key, which each partition now has on id alone, records_pkey_<board>_<ordinal> (a unique
-- index of the partitioned table would have to hold board_id), and records_statement_ts. That takes
-- 8 bytes (alignment) off each of their entries, a third of each. The others keep board_id: without
-- it their entries would be no smaller (alignment again), and their plans stay as they were.
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
CREATE INDEX records_statement_ts ON records (statement_ts);
COMMENT ON INDEX records_statement_ts IS 'Listing: sort by statement time (incremental sort by ID per instant) and a statement-time window in statement-time order; capped counts of a window.';
CREATE INDEX records_leaf_hash ON records USING hash (sha256('\x00'::bytea || statement)) WHERE kind = 1;
COMMENT ON INDEX records_leaf_hash IS 'Serves GET /boards/{board}/proof?leaf_hash=: the cast vote (kind 1) whose RFC 6962 leaf hash is given (store Records.BY_LEAF_HASH_SQL).';

-- The partition of the scratch boards (negative IDs: the projector's warm-up writes one in
-- transactions it rolls back, decision 81). One partition made here for all of them, so that a
-- warm-up never attaches one (DDL at every start); it stays empty but for dead tuples.
CREATE TABLE records_scratch PARTITION OF records FOR VALUES FROM (MINVALUE, MINVALUE) TO (0, 0);
ALTER TABLE records_scratch ADD CONSTRAINT records_pkey_scratch PRIMARY KEY (id);
DO $$
DECLARE
    ix record;
BEGIN
    FOR ix IN SELECT c.relname AS child, p.relname AS parent
              FROM pg_index x
              JOIN pg_class c ON c.oid = x.indexrelid
              JOIN pg_inherits i ON i.inhrelid = x.indexrelid
              JOIN pg_class p ON p.oid = i.inhparent
              WHERE x.indrelid = 'records_scratch'::regclass LOOP
        EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.child, ix.parent || '_scratch');
    END LOOP;
END $$;
COMMENT ON TABLE records_scratch IS 'The records of scratch boards (negative board IDs), written only in transactions that are rolled back (the projector''s warm-up): always empty.';

-- A board's delivery key: its board ID (2 bytes, big-endian) and the first 14 bytes of SHA-256
-- over the ID's UTF-8 bytes, as one uuid, so that the dedup index holds 16 fixed bytes an entry and
-- no board column (a quarter smaller than (board_id, 16-byte bytea), and a row of deliveries is 48
-- bytes). The projector computes the same bytes in Java (Deliveries.key) and compares the full IDs
-- of any match: two IDs with one key (2^56 work) are a collision, dead-lettered, never a silent drop.
CREATE FUNCTION board_delivery_key(board_id smallint, delivery_id text) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN encode(int2send(board_id) || substring(sha256(convert_to(delivery_id, 'UTF8')) FROM 1 FOR 14), 'hex')::uuid;
COMMENT ON FUNCTION board_delivery_key(smallint, text) IS 'The key of a delivery ID on a board in deliveries (V15).';

CREATE TABLE deliveries (
    key uuid   PRIMARY KEY,   -- board_delivery_key(board_id, delivery_id): the board-wide dedup; the projector's lookup (Deliveries.LOOKUP_SQL), what a repeat runs into, and a board's keys as one range (the audit's fingerprint)
    id  bigint NOT NULL       -- the record that holds the delivery ID (its full text is there)
);
COMMENT ON TABLE deliveries IS 'Each stored delivery ID''s key once per board, written with its record in the batch transaction. Its primary key keeps delivery IDs unique per board across the records partitions (a partitioned unique index cannot).';

-- Existing records move: each board gets the partitions its IDs need, then rows and keys are copied.
DO $$
DECLARE
    b record;
    w bigint := (SELECT width FROM record_partitioning);
    n int;
    part text;
    ix record;
BEGIN
    FOR b IN SELECT board_id, max(id) AS last_id FROM records_unpartitioned GROUP BY board_id ORDER BY board_id LOOP
        FOR n IN 0 .. (b.last_id / w)::int LOOP
            part := format('records_%s_%s', b.board_id, n);
            EXECUTE format('CREATE TABLE %I PARTITION OF records FOR VALUES FROM (%s, %s) TO (%s, %s)',
                           part, b.board_id, n * w, b.board_id, (n + 1) * w);
            EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id)', part, format('records_pkey_%s_%s', b.board_id, n));
            FOR ix IN SELECT c.relname AS child, p.relname AS parent
                      FROM pg_index x
                      JOIN pg_class c ON c.oid = x.indexrelid
                      JOIN pg_inherits i ON i.inhrelid = x.indexrelid
                      JOIN pg_class p ON p.oid = i.inhparent
                      WHERE x.indrelid = part::regclass LOOP
                EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.child, format('%s_%s_%s', ix.parent, b.board_id, n));
            END LOOP;
            INSERT INTO record_partitions (board_id, first_id, end_id, name) VALUES (b.board_id, n * w, (n + 1) * w, part);
        END LOOP;
    END LOOP;
END $$;

INSERT INTO records (id, created, statement_ts, kafka_offset, schema_id, kafka_partition, sender_id, board_id, kind,
                     user_id, username, election_id, area_id, ballot_id, delivery_id, event_type, error,
                     sender_signature, system_signature, statement)
SELECT id, created, statement_ts, kafka_offset, schema_id, kafka_partition, sender_id, board_id, kind,
       user_id, username, election_id, area_id, ballot_id, delivery_id, event_type, error,
       sender_signature, system_signature, statement
FROM records_unpartitioned;
INSERT INTO deliveries (key, id) SELECT board_delivery_key(board_id, delivery_id), id FROM records_unpartitioned;

-- The views that read records are defined again on the same text, so they now read the new table;
-- CREATE OR REPLACE keeps each view's grants and comment.
DO $$
DECLARE
    v record;
BEGIN
    FOR v IN SELECT DISTINCT c.oid::regclass::text AS name, pg_get_viewdef(c.oid) AS def
             FROM pg_depend d
             JOIN pg_rewrite r ON r.oid = d.objid
             JOIN pg_class c ON c.oid = r.ev_class
             WHERE d.refobjid = 'records_unpartitioned'::regclass AND c.relkind = 'v' LOOP
        EXECUTE format('CREATE OR REPLACE VIEW %s AS %s', v.name,
                       replace(v.def, 'records_unpartitioned', 'records'));
    END LOOP;
END $$;

-- The grants on the old table, on the new one.
DO $$
DECLARE
    g record;
BEGIN
    FOR g IN SELECT grantee, privilege_type FROM information_schema.role_table_grants
             WHERE table_schema = current_schema() AND table_name = 'records_unpartitioned'
               AND grantee <> current_user LOOP
        EXECUTE format('GRANT %s ON records, deliveries, record_partitions, record_partitioning TO %I',
                       g.privilege_type, g.grantee);
    END LOOP;
END $$;

DROP TABLE records_unpartitioned;
