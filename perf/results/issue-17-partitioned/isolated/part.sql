CREATE TABLE records_p (LIKE records) PARTITION BY RANGE (board_id, id);
ALTER TABLE records_p ADD PRIMARY KEY (board_id, id);
CREATE INDEX ON records_p (board_id, kind, id);
CREATE INDEX ON records_p (board_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX ON records_p (board_id, username) WHERE username IS NOT NULL;
CREATE INDEX ON records_p (board_id, ballot_id) WHERE ballot_id IS NOT NULL;
CREATE INDEX ON records_p (board_id, election_id, id) WHERE election_id IS NOT NULL;
CREATE INDEX ON records_p (board_id, statement_ts);
CREATE INDEX ON records_p USING hash (sha256('\x00'::bytea || statement)) WHERE kind = 1;
CREATE TABLE deliveries (board_id smallint NOT NULL, key bytea NOT NULL, id bigint NOT NULL, PRIMARY KEY (board_id, key));
DO $$ BEGIN FOR i IN 0..15 LOOP
  EXECUTE format('CREATE TABLE records_p_%s PARTITION OF records_p FOR VALUES FROM (1, %s) TO (1, %s)', i, i * 250000, (i + 1) * 250000);
END LOOP; END $$;
