-- V22: statements stored in a form of their own (issue 46, decision 123). The canonical statement
-- spells out every field name and repeats the board, the delivery ID and the election, area and
-- ballot IDs that the row holds in columns; a record's row now stores it with each name as a byte
-- and each such value as a one-byte reference to the row (core StoredStatement), and every reader
-- gives the canonical bytes back with the row's columns (store RecordStatements). Rows written
-- before keep their canonical bytes, which begin "ELS1" and are read as they are.
--
-- The leaf-hash index of V10 and V15 was on an expression over the canonical bytes, which the
-- stored form no longer is: the cast votes' leaf key takes its place, the first 8 bytes of the leaf
-- hash in a column (8 bytes on a cast vote's row, none on any other), hash-indexed as before.

ALTER TABLE records ADD COLUMN leaf_key bigint;  -- cast votes (kind 1): the first 8 bytes of the RFC 6962 leaf hash, big-endian; NULL for other kinds
COMMENT ON COLUMN records.leaf_key IS 'Cast votes (kind 1): the first 8 bytes, big-endian, of the record''s RFC 6962 leaf hash SHA-256(0x00 || canonical statement); NULL for the other kinds. Serves GET /boards/{board}/proof?leaf_hash= through records_leaf_key (store RecordStatements.BY_LEAF_HASH_SQL, which checks the whole hash).';
-- A new name for what the column now holds: a query API of an earlier build, which would serve the
-- stored form as entries, fails on the name instead (docs/operations.md "Upgrades").
ALTER TABLE records RENAME COLUMN statement TO stored_statement;
COMMENT ON COLUMN records.stored_statement IS 'The statement as stored (V22, core StoredStatement): its canonical bytes with field names coded and the board, delivery, election, area and ballot IDs referring to the row; read back to the canonical bytes, the log entry whose leaf hash is in the tree, with the row (store RecordStatements). Rows written before V22 hold the canonical bytes (they begin "ELS1").';

-- the old index first: the update below need not maintain it
DROP INDEX records_leaf_hash;
-- the rows written before V22 hold canonical bytes: their leaf hashes are computed here once
UPDATE records SET leaf_key = ('x' || encode(substring(sha256('\x00'::bytea || stored_statement) FROM 1 FOR 8), 'hex'))::bit(64)::bigint
WHERE kind = 1;
CREATE INDEX records_leaf_key ON records USING hash (leaf_key) WHERE kind = 1;
COMMENT ON INDEX records_leaf_key IS 'Serves GET /boards/{board}/proof?leaf_hash=: the cast votes (kind 1) whose leaf key (the first 8 bytes of the RFC 6962 leaf hash) is the given one (store RecordStatements.BY_LEAF_HASH_SQL).';

-- each partition's copy of the new index is named as store RecordPartitions names them:
-- records_leaf_key_<board>_<ordinal>, and records_leaf_key_scratch
DO $$
DECLARE
    ix record;
BEGIN
    FOR ix IN SELECT c.relname AS child, t.relname AS part
              FROM pg_index x
              JOIN pg_class c ON c.oid = x.indexrelid
              JOIN pg_class t ON t.oid = x.indrelid
              JOIN pg_inherits i ON i.inhrelid = x.indexrelid
              WHERE i.inhparent = 'records_leaf_key'::regclass LOOP
        EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.child, 'records_leaf_key' || substring(ix.part FROM 8));
    END LOOP;
END $$;

COMMENT ON COLUMN analyst_records.statement_bytes IS 'The bytes the record''s statement takes in its row (V22: the stored form, smaller than the canonical bytes, which the record view and the entry bundles serve).';
