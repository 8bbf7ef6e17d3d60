-- V19 (issue 46, docs/personal-data.md "The projection"): the openings of statements in the
-- committed form (format 2). The projector decrypts each event's openings, checks them against the
-- statement's commitments and stores them here, one row beside each record; the values also go
-- into the record's user_id, username and error columns as before, for the indexes and views.
-- Erasure (electoral-log erase) deletes a record's row here and those columns' values; the
-- record, its leaf and the tree never change. The query API's login reads this table through V8's
-- default privileges (it shows the openings to observers and the record's voter only); analysts'
-- views do not include it.

CREATE TABLE personal_openings (
    board_id  smallint NOT NULL,   -- the record's board (records.board_id)
    record_id bigint   NOT NULL,   -- the record (records.id): its leaf index
    openings  bytea    NOT NULL,   -- uvarint(n) { str(path) salt(16) str(value) } sorted by path (core PersonalOpenings.encode)
    PRIMARY KEY (board_id, record_id)  -- serves a record's openings (the record view), the audit's pages by ID range and erasure by record
);
COMMENT ON TABLE personal_openings IS 'Opened personal values of format 2 statements (V19, docs/personal-data.md), one row per record, written by the projector in the batch transaction. For each opening, SHA-256 of the board, delivery ID, path, salt and value is the commitment in the record''s canonical statement: the audit checks every one. Deleted by electoral-log erase. One row a record, not one a field: a board of 20M records holds 20M rows and index entries here, not 80M.';
COMMENT ON COLUMN personal_openings.board_id IS 'The board of the record (records.board_id).';
COMMENT ON COLUMN personal_openings.record_id IS 'The record (records.id), the leaf index in the board''s tree.';
COMMENT ON COLUMN personal_openings.openings IS 'The record''s openings as core PersonalOpenings.encode writes them (the plaintext the event carried encrypted): each personal field''s path (schemas CommittedForm.PATHS), the 16-byte salt of its commitment and its value. Personal data: readable by the owner and the query API''s login (shown to observers and the record''s voter), not by analysts.';
