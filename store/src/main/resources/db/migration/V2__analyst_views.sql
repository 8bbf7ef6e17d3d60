-- V2: documented views for analysts and a read-only role (issue 5).

CREATE VIEW statement_kinds (kind, name) AS
VALUES (0::smallint, 'UNKNOWN'), (1::smallint, 'CAST_VOTE'), (2::smallint, 'CAST_VOTE_ERROR'),
       (3::smallint, 'IDP_USER_EVENT'), (4::smallint, 'ELECTION_PUBLISHED'), (5::smallint, 'VOTING_PERIOD_OPENED'),
       (6::smallint, 'VOTING_PERIOD_PAUSED'), (7::smallint, 'VOTING_PERIOD_CLOSED'), (8::smallint, 'KEY_GENERATION'),
       (9::smallint, 'KEY_INSERTION_START'), (10::smallint, 'KEY_INSERTION_CEREMONY'), (11::smallint, 'TALLY_OPENED'),
       (12::smallint, 'TALLY_CLOSED'), (13::smallint, 'COMMUNICATIONS_SENT'), (14::smallint, 'VOTER_PUBLIC_KEY'),
       (15::smallint, 'ADMIN_PUBLIC_KEY'), (16::smallint, 'LOG_CHECKPOINT'), (17::smallint, 'LOG_CONTINUATION');
COMMENT ON VIEW statement_kinds IS 'Kind codes of records.kind and counters.kind with their names (schemas StatementKinds; append-only).';

CREATE VIEW analyst_records AS
SELECT b.name AS board, r.id, r.created, r.statement_ts, k.name AS kind, r.user_id, r.username, r.election_id,
       r.area_id, r.ballot_id, r.delivery_id, encode(r.sender_key, 'hex') AS sender_key,
       length(r.statement) AS statement_bytes, r.kafka_partition, r.kafka_offset
FROM records r
JOIN boards b USING (board_id)
JOIN statement_kinds k ON k.kind = r.kind;
COMMENT ON VIEW analyst_records IS 'Records with board names and readable kinds. Filter by board and an id or created range: each board is one index range.';

CREATE VIEW analyst_counts AS
SELECT b.name AS board, CASE WHEN c.kind = -1 THEN 'ALL' ELSE k.name END AS kind,
       NULLIF(c.election_id, '') AS election_id, c.n
FROM counters c
JOIN boards b USING (board_id)
LEFT JOIN statement_kinds k ON k.kind = c.kind;
COMMENT ON VIEW analyst_counts IS 'Per-board counts (all, by kind, by kind and election), maintained with the records: constant time.';

CREATE VIEW analyst_boards AS
SELECT b.name AS board, b.origin, b.created, s.size, encode(s.root, 'base64') AS root, s.duplicates_dropped,
       (SELECT max(k.size) FROM checkpoints k WHERE k.board_id = b.board_id) AS checkpointed_size
FROM boards b JOIN board_state s USING (board_id);
COMMENT ON VIEW analyst_boards IS 'Each board with its tree head and latest checkpointed size.';

-- The read-only role is cluster-wide: create it once, tolerate a concurrent creator, and leave it to
-- the operator (with a notice) when this login may not create roles.
DO $$
BEGIN
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_reader') THEN
            CREATE ROLE electoral_log_reader NOLOGIN;
        END IF;
    EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
            RAISE NOTICE 'cannot create role electoral_log_reader; create it by hand and grant it SELECT';
    END;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_reader') THEN
        EXECUTE 'COMMENT ON ROLE electoral_log_reader IS ''Read-only access to the projection for analysts and the query API: GRANT electoral_log_reader TO <login role>.''';
        EXECUTE 'GRANT USAGE ON SCHEMA public TO electoral_log_reader';
        EXECUTE 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO electoral_log_reader';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO electoral_log_reader';
    END IF;
END
$$;
