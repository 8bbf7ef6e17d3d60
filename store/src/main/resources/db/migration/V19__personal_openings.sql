-- V19 (issue 46, docs/personal-data.md "The projection"): the openings of statements in the
-- committed form (format 2). The projector decrypts each event's openings, checks them against the
-- statement's commitments and stores them here, beside the record; the values also go into the
-- record's user_id, username and error columns as before, for the indexes and views. Erasure
-- (electoral-log erase) deletes a record's openings and those columns' values; the record, its leaf
-- and the tree never change. The query API's login reads this table through V8's default
-- privileges (it shows values to observers and above only); analysts' views do not include it.

CREATE TABLE personal_openings (
    board_id  smallint NOT NULL,                                   -- the record's board (records.board_id)
    record_id bigint   NOT NULL,                                   -- the record (records.id): its leaf index
    path      text     NOT NULL,                                   -- the personal field: user_id, username, body.ip, body.country, body.error
    salt      bytea    NOT NULL CHECK (octet_length(salt) = 16),   -- the commitment's salt (core PersonalCommitment)
    value     text     NOT NULL,                                   -- the value the commitment opens to
    PRIMARY KEY (board_id, record_id, path)                        -- serves a record's openings (the record view, the audit) and erasure by record range
);
COMMENT ON TABLE personal_openings IS 'Opened personal values of format 2 statements (V19, docs/personal-data.md), one row per record and personal field, written by the projector in the batch transaction. SHA-256 of the board, delivery ID, path, salt and value is the commitment in the record''s canonical statement: the audit checks every row. Deleted by electoral-log erase.';
COMMENT ON COLUMN personal_openings.board_id IS 'The board of the record (records.board_id).';
COMMENT ON COLUMN personal_openings.record_id IS 'The record (records.id), the leaf index in the board''s tree.';
COMMENT ON COLUMN personal_openings.path IS 'The personal field (schemas CommittedForm.PATHS): user_id, username, body.ip, body.country or body.error.';
COMMENT ON COLUMN personal_openings.salt IS 'The 16 random bytes of the field''s commitment.';
COMMENT ON COLUMN personal_openings.value IS 'The field''s value: personal data. Readable by the owner and the query API''s login (shown to observers and above), not by analysts.';
