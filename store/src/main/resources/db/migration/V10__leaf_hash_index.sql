-- V10: inclusion proofs by leaf hash (issue 15): a voter's receipt may hold only their ballot's leaf
-- hash, RFC 6962 section 2.1 SHA-256(0x00 || entry), where the entry is the canonical statement.
-- The hash is not stored (32 bytes a record); the index is on the expression, so PostgreSQL
-- computes it once per insert, and it is a hash index (a 4-byte code per entry, not a B-tree over
-- 32 random bytes). It covers cast votes only, the records a voter holds a receipt for: the other
-- kinds are proven by record ID, and indexing them too would add about 30 bytes to every record
-- against the 1,100-byte budget (decision 51). A leaf hash is unique on a board (the statement
-- holds its delivery ID); the lookup checks the board and takes the lowest ID.

CREATE INDEX IF NOT EXISTS records_leaf_hash ON records USING hash (sha256('\x00'::bytea || statement))
    WHERE kind = 1;
COMMENT ON INDEX records_leaf_hash IS 'Serves GET /boards/{board}/proof?leaf_hash=: the cast vote (kind 1) whose RFC 6962 leaf hash is given (store Records.BY_LEAF_HASH_SQL).';
