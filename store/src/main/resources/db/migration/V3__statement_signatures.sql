-- V3: keep the statement signatures with the records, so the audit can verify them from the
-- projection alone (issue 7). NULL when a statement was not signed: a NULL costs one bit per row.

ALTER TABLE records ADD COLUMN sender_signature bytea;   -- Ed25519 by sender_key over statement (the canonical bytes)
ALTER TABLE records ADD COLUMN system_signature bytea;   -- Ed25519 by a system key over statement
COMMENT ON COLUMN records.sender_signature IS 'Ed25519 signature by sender_key over the canonical statement bytes, if the event carried one.';
COMMENT ON COLUMN records.system_signature IS 'Ed25519 signature by the voting system over the canonical statement bytes, if the event carried one.';
