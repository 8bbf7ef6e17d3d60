-- V16 (issue 41): a board's ID is 1 above the highest, taken in the projector's batch transaction
-- under a lock on boards (Boards.create), so a rolled-back batch gives its ID back. The sequence
-- lost a value with every rolled-back batch, and batches that failed could use the 32,767 IDs up.

DROP SEQUENCE board_ids;

COMMENT ON COLUMN boards.board_id IS 'Small integer used in every other row and index instead of the name: 1 above the highest when the board is created by its first statement the sender registry allows (Boards.create, V16); negative only for the warm-up''s scratch boards, which are rolled back.';
