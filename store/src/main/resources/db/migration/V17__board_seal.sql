-- V17 (issue 42): a board can be sealed. Its BOARD_SEALED statement is its last record; the
-- projector refuses every later statement for it (dead letter BOARD_SEALED), so the size and root
-- in board_state at the time of sealing are the sealed size and root, for good.

ALTER TABLE board_state ADD COLUMN sealed timestamptz;
COMMENT ON COLUMN board_state.sealed IS 'When the board was sealed: the created time of its BOARD_SEALED record (record size-1); NULL while it is open. Read with the board state (Boards.STATE) by the projector, which refuses statements for a sealed board, and by GET /boards and the voter page.';

-- A backstop below the projector's own refusal: a sealed board's tree never changes. A write that
-- would change it is a bug of the projector; SQLSTATE XX000 stops it as damage (BatchFailure.STOP)
-- instead of growing a log that observers were told is closed.
CREATE FUNCTION board_state_sealed_never_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.sealed IS NOT NULL
            AND (NEW.size <> OLD.size OR NEW.root <> OLD.root OR NEW.sealed IS DISTINCT FROM OLD.sealed) THEN
        RAISE EXCEPTION 'board % was sealed at size % and cannot change', OLD.board_id, OLD.size
            USING ERRCODE = 'XX000';
    END IF;
    RETURN NEW;
END $$;
COMMENT ON FUNCTION board_state_sealed_never_changes() IS 'Refuses a change of a sealed board''s size, root or seal (V17).';

CREATE TRIGGER board_state_sealed BEFORE UPDATE ON board_state
    FOR EACH ROW EXECUTE FUNCTION board_state_sealed_never_changes();
COMMENT ON TRIGGER board_state_sealed ON board_state IS 'A sealed board never grows (V17): fires once per board and batch, on the projector''s board_state update.';

-- the kind's name for analysts (schemas StatementKinds: append-only, code 18)
CREATE OR REPLACE VIEW statement_kinds (kind, name) AS
VALUES (0::smallint, 'UNKNOWN'), (1::smallint, 'CAST_VOTE'), (2::smallint, 'CAST_VOTE_ERROR'),
       (3::smallint, 'IDP_USER_EVENT'), (4::smallint, 'ELECTION_PUBLISHED'), (5::smallint, 'VOTING_PERIOD_OPENED'),
       (6::smallint, 'VOTING_PERIOD_PAUSED'), (7::smallint, 'VOTING_PERIOD_CLOSED'), (8::smallint, 'KEY_GENERATION'),
       (9::smallint, 'KEY_INSERTION_START'), (10::smallint, 'KEY_INSERTION_CEREMONY'), (11::smallint, 'TALLY_OPENED'),
       (12::smallint, 'TALLY_CLOSED'), (13::smallint, 'COMMUNICATIONS_SENT'), (14::smallint, 'VOTER_PUBLIC_KEY'),
       (15::smallint, 'ADMIN_PUBLIC_KEY'), (16::smallint, 'LOG_CHECKPOINT'), (17::smallint, 'LOG_CONTINUATION'),
       (18::smallint, 'BOARD_SEALED');
COMMENT ON VIEW statement_kinds IS 'Kind codes of records.kind and counters.kind with their names (schemas StatementKinds; append-only; V17 added BOARD_SEALED).';
