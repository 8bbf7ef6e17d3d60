-- V12: when each checkpoint was signed (issue 16, observability): the query API's gauge
-- electoral_log_checkpoint_age_seconds{board} and the alert on a board whose records are not
-- checkpointed read it. Rows signed before this migration carry the migration's time.
ALTER TABLE checkpoints ADD COLUMN IF NOT EXISTS signed timestamptz NOT NULL DEFAULT now();
COMMENT ON COLUMN checkpoints.signed IS 'When the projector stored this checkpoint (its transaction time); the migration''s time for checkpoints stored before V12. Serves Boards.HEADS_SQL (the checkpoint age gauge).';
