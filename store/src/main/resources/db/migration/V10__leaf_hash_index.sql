-- V10: inclusion proofs by leaf hash (issue 15): a voter's receipt may hold only the record's leaf
-- hash, RFC 6962 section 2.1 SHA-256(0x00 || entry), where the entry is the canonical statement.
-- The hash is not stored (32 bytes a record); the index is on the expression, so PostgreSQL
-- computes it once per insert and the index holds a 4-byte hash code per record (a hash index, not
-- a B-tree over 32 random bytes). A leaf hash is unique on a board (the statement holds its
-- delivery ID); the lookup checks the board and takes the lowest ID.

CREATE INDEX IF NOT EXISTS records_leaf_hash ON records USING hash (sha256('\x00'::bytea || statement));
COMMENT ON INDEX records_leaf_hash IS 'Serves GET /boards/{board}/proof?leaf_hash=: the record whose RFC 6962 leaf hash is given (store Records.BY_LEAF_HASH_SQL).';
