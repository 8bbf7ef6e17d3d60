-- V11: what analysts need that lived only inside the statements (issue 15, docs/security.md
-- "Database logins"): the identity-provider event type and the error texts, and counts per hour.
-- The analyst login reads them through views, never the raw tables.

-- Two nullable columns on records, not a side table: NULL costs a bit in the row's null bitmap, and
-- a side row would cost a tuple header and a primary-key entry for every identity-provider event,
-- most of an election's records (decision 52). Adding a nullable column does not rewrite the table.
ALTER TABLE records ADD COLUMN IF NOT EXISTS event_type text;   -- IDP_USER_EVENT body event_type (LOGIN, LOGIN_ERROR, ...)
ALTER TABLE records ADD COLUMN IF NOT EXISTS error text;        -- IDP_USER_EVENT and CAST_VOTE_ERROR body error
COMMENT ON COLUMN records.event_type IS 'The identity-provider event type from the statement body (kind IDP_USER_EVENT), for analyst_idp_events; NULL for other kinds and for records projected before V11 (a rebuild fills it).';
COMMENT ON COLUMN records.error IS 'The error text from the statement body (kinds IDP_USER_EVENT and CAST_VOTE_ERROR), for the analyst views; NULL otherwise and for records projected before V11.';

CREATE TABLE IF NOT EXISTS hourly_counts (
    board_id smallint    NOT NULL,
    hour     timestamptz NOT NULL,       -- the statement time (statement_ts) cut to the hour, UTC
    kind     smallint    NOT NULL,       -- statement kind code
    n        bigint      NOT NULL,       -- records of that kind whose statement time is in that hour
    PRIMARY KEY (board_id, hour, kind)   -- the projector's upsert per batch; analysts' range of hours
);
COMMENT ON TABLE hourly_counts IS 'Records per board, hour of statement time and kind, kept by the projector in the batch transaction (like counters) and recounted by the audit. Serves analyst_hourly_counts: logins, votes and errors per hour without reading the records.';

-- the records projected before this migration (the projector keeps it from now on)
INSERT INTO hourly_counts (board_id, hour, kind, n)
SELECT board_id, to_timestamp(floor(extract(epoch FROM statement_ts) / 3600) * 3600), kind, count(*)
FROM records
GROUP BY 1, 2, 3
ON CONFLICT (board_id, hour, kind) DO NOTHING;

CREATE OR REPLACE VIEW analyst_idp_events AS
SELECT b.name AS board, r.id, r.created, r.statement_ts, r.user_id, r.username, r.event_type, r.error
FROM records r
JOIN boards b USING (board_id)
WHERE r.kind = 3;
COMMENT ON VIEW analyst_idp_events IS 'Identity-provider events (logins, login errors, ...) with their event type and error. Filter by board and an id or created range (records_kind serves the kind).';

CREATE OR REPLACE VIEW analyst_vote_errors AS
SELECT b.name AS board, r.id, r.created, r.statement_ts, r.user_id, r.election_id, r.area_id, r.error
FROM records r
JOIN boards b USING (board_id)
WHERE r.kind = 2;
COMMENT ON VIEW analyst_vote_errors IS 'Cast-vote errors with their error text. Filter by board and an id or created range.';

CREATE OR REPLACE VIEW analyst_hourly_counts AS
SELECT b.name AS board, h.hour, k.name AS kind, h.n
FROM hourly_counts h
JOIN boards b USING (board_id)
JOIN statement_kinds k ON k.kind = h.kind;
COMMENT ON VIEW analyst_hourly_counts IS 'Records per board, hour (UTC, of the statement time) and kind, e.g. logins or votes per hour; constant work per hour, not per record.';

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_analyst') THEN
        EXECUTE 'GRANT SELECT ON analyst_idp_events, analyst_vote_errors, analyst_hourly_counts TO electoral_log_analyst';
    END IF;
END
$$;
