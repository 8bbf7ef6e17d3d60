-- V7: analyst_counts names every counter (issue 14). V5 added the with-user counter (kind -2),
-- which V2's view showed with a NULL kind. The kind codes of the aggregates are store CounterKey's
-- ALL_KINDS (-1) and WITH_USER (-2).

CREATE OR REPLACE VIEW analyst_counts AS
SELECT b.name AS board,
       CASE c.kind WHEN -1 THEN 'ALL' WHEN -2 THEN 'WITH_USER' ELSE k.name END AS kind,
       NULLIF(c.election_id, '') AS election_id, c.n
FROM counters c
JOIN boards b USING (board_id)
LEFT JOIN statement_kinds k ON k.kind = c.kind;
COMMENT ON VIEW analyst_counts IS 'Per-board counts maintained with the records, in constant time: ALL (every record), WITH_USER (records with a user ID), by kind, by election (kind ALL) and by kind and election. Serves analysts'' count queries.';
