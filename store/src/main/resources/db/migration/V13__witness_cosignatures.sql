-- V13: witness cosignatures (issue 18, docs/witnesses.md). The projector's witnessing loop sends
-- each board's new checkpoint to the configured witnesses (C2SP tlog-witness add-checkpoint) and
-- stores every cosignature (C2SP tlog-cosignature, cosignature/v1) it verified here; a checkpoint
-- that a quorum of witnesses cosigned is marked witnessed. The query API serves checkpoints with
-- their cosignature lines appended (a signed note may carry many signatures).

CREATE TABLE IF NOT EXISTS checkpoint_cosignatures (
    board_id  smallint    NOT NULL,                 -- the board (boards.id)
    size      bigint      NOT NULL,                 -- the checkpoint's tree size
    witness   text        NOT NULL,                 -- the witness key: '<name>+<hex key ID>' of its cosignature/v1 vkey
    line      text        NOT NULL,                 -- the signature line as the witness returned it ('— <name> <base64>\n'), verified before it was stored
    cosigned  timestamptz NOT NULL,                 -- the timestamp inside the cosignature (the witness's clock)
    received  timestamptz NOT NULL DEFAULT now(),   -- when the projector stored it (its transaction time)
    PRIMARY KEY (board_id, size, witness),          -- serves the cosignature lines of one checkpoint (Cosignatures.LINES_SQL) and the quorum count
    FOREIGN KEY (board_id, size) REFERENCES checkpoints (board_id, size)
);
COMMENT ON TABLE checkpoint_cosignatures IS 'Witness cosignatures of signed checkpoints, one per checkpoint and witness key. Written by the projector''s witnessing loop; read by the query API to serve a checkpoint with its cosignatures.';

CREATE INDEX IF NOT EXISTS checkpoint_cosignatures_witness ON checkpoint_cosignatures (board_id, witness, size DESC);
COMMENT ON INDEX checkpoint_cosignatures_witness IS 'The largest size a witness cosigned on a board (Cosignatures.LAST_SIZE_SQL): the old size of the next add-checkpoint request.';

ALTER TABLE checkpoints ADD COLUMN IF NOT EXISTS witnessed timestamptz;
COMMENT ON COLUMN checkpoints.witnessed IS 'When a quorum (ELECTORAL_LOG_WITNESS_QUORUM) of witnesses had cosigned this checkpoint; NULL until then, and always NULL without witnesses.';

CREATE INDEX IF NOT EXISTS checkpoints_witnessed ON checkpoints (board_id, size DESC) WHERE witnessed IS NOT NULL;
COMMENT ON INDEX checkpoints_witnessed IS 'The latest witnessed checkpoint of a board (Checkpoints.LATEST_WITNESSED_SQL): what the voter page and tlog-proof bundles are built on.';
