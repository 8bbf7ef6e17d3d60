-- V14: comments only (issue 17, decision 62). Checkpoint and proof requests now read a board, its
-- size, its latest (or latest witnessed) checkpoint and that checkpoint's cosignature lines in one
-- statement (Boards.TIP_SQL, Boards.WITNESSED_TIP_SQL); the comments below say which query each
-- index serves now that Checkpoints.LATEST_WITNESSED_SQL is gone. Nothing else changes.

COMMENT ON INDEX checkpoints_witnessed IS 'The latest witnessed checkpoint of a board (Boards.WITNESSED_TIP_SQL): what ?witnessed=true, the voter page and tlog-proof bundles are built on.';

COMMENT ON TABLE checkpoints IS 'Signed checkpoint history, one per board and size. Its primary key serves a board''s latest checkpoint (Boards.TIP_SQL, Checkpoints.LATEST_SQL) and the checkpoint at one size (Checkpoints.AT_SQL).';

COMMENT ON TABLE checkpoint_cosignatures IS 'Witness cosignatures of signed checkpoints, one per checkpoint and witness key. Written by the projector''s witnessing loop; its primary key serves the lines appended to a served checkpoint (Boards.TIP_SQL, Cosignatures.LINES_SQL) and the quorum count.';
