-- V23 (issue 61 item 6, docs/personal-data.md "A board in the committed form stays in it"): the
-- first record of a board in the committed form (format 2) switches the board to it for good; from
-- then on the projector dead-letters a statement holding a personal value in the clear
-- (COMMITTED_FORM_REQUIRED), since a value in a leaf can never be erased. The column is a fact
-- about the board's own records, so a replay of the topic sets it at the same record.

ALTER TABLE board_state ADD COLUMN committed_from bigint;  -- the board's first record in the committed form; NULL while it has none
COMMENT ON COLUMN board_state.committed_from IS 'ID of the board''s first record in the committed form (format 2), or NULL while it has none: from it on the projector refuses statements holding a personal value in the clear (COMMITTED_FORM_REQUIRED, issue 61). Read by the projector with the board''s state (store Boards.state); written in the batch that projects that record.';

-- Boards projected before V23: their first record with openings, which only the committed form
-- has (V21). Exact but for two cases that do not change what the rule refuses: a board sealed
-- before its first openings were erased (a sealed board takes no record the rule could refuse), and
-- a board whose first format 2 statements held no personal value (it switches at its first that
-- did; a replay, which reads the statements themselves, switches at the first: docs/operations.md
-- "Upgrades" says to rebuild such a projection). One pass over the records, once.
UPDATE board_state s SET committed_from = f.first
FROM (SELECT board_id, min(id) AS first FROM records WHERE openings IS NOT NULL GROUP BY board_id) f
WHERE s.board_id = f.board_id;
