-- V21 (issue 46, docs/personal-data.md "The projection" and "Costs"): a record's openings move
-- from V19's table beside the records into the record's own row, in a smaller form (core
-- ProjectedOpenings: every salt, a path as one byte, and only the values that no column of the row
-- holds). A table of its own cost each record a second row and a primary-key entry (242 bytes a
-- record in the committed form at 1M) and each batch a second insert; the column costs about 90.
-- Rows moved from V19 keep V19's encoding (values included), which ProjectedOpenings still reads.

ALTER TABLE records ADD COLUMN openings bytea;  -- core ProjectedOpenings; NULL for format 1 and once erased
COMMENT ON COLUMN records.openings IS 'The openings of a statement in the committed form (V21, docs/personal-data.md): core ProjectedOpenings, every salt and the values of the personal fields that no column holds (body.ip, body.country); with the user_id, username and error columns they open the commitments in the statement, which the audit checks. NULL for format 1 statements, for statements without personal values, and once erased (electoral-log erase). Personal data: the query API shows it to observers and the record''s voter only; analysts'' views do not include it.';

UPDATE records r SET openings = o.openings
FROM personal_openings o
WHERE r.board_id = o.board_id AND r.id = o.record_id;

DROP TABLE personal_openings;
