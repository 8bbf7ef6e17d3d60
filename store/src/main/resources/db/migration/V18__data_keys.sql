-- V18 (issue 46, docs/personal-data.md): the key store of the committed form. One AES-256 data key
-- per board and UTC day encrypts the personal values (the openings) that travel in the events beside
-- their commitments; erasing deletes a key, and then nobody can read those values from the topic.
-- A schema of its own, so that no grant on public (the query API's and the analysts' logins read
-- public, V8) ever reaches a key.

CREATE SCHEMA personal_keys;
COMMENT ON SCHEMA personal_keys IS 'The data keys of the committed form (V18): read and created by the producer side (login electoral_log_keys) and the projector (the owner), destroyed by electoral-log erase; nobody else.';
REVOKE ALL ON SCHEMA personal_keys FROM PUBLIC;

CREATE TABLE personal_keys.data_keys (
    key_id  text        PRIMARY KEY,
    board   text        NOT NULL,
    day     date        NOT NULL,
    key     bytea       CHECK (key IS NULL OR octet_length(key) = 32),
    created timestamptz NOT NULL DEFAULT now(),
    erased  timestamptz,
    CHECK ((key IS NULL) = (erased IS NOT NULL)),
    UNIQUE (board, day)
);
COMMENT ON TABLE personal_keys.data_keys IS 'One data key per board and UTC day (store SqlDataKeys). A row is never deleted: an erased key keeps its row with key NULL, so a replay knows its statements'' openings were erased, not lost.';
COMMENT ON COLUMN personal_keys.data_keys.key_id IS 'The key''s name as events carry it (envelope personal.key_id): <board>/<yyyy-mm-dd>. The projector looks keys up by it (SqlDataKeys.find).';
COMMENT ON COLUMN personal_keys.data_keys.board IS 'The board whose statements the key encrypts.';
COMMENT ON COLUMN personal_keys.data_keys.day IS 'The UTC day of the statements'' time (statement_timestamp) the key covers.';
COMMENT ON COLUMN personal_keys.data_keys.key IS 'The 32 key bytes (AES-256-GCM); NULL once erased.';
COMMENT ON COLUMN personal_keys.data_keys.created IS 'When the producer side first needed the key.';
COMMENT ON COLUMN personal_keys.data_keys.erased IS 'When electoral-log erase destroyed the key; NULL while it exists.';
COMMENT ON CONSTRAINT data_keys_board_day_key ON personal_keys.data_keys IS 'One key per board and day: serves the producer''s lookup by board and day (SqlDataKeys.forDay) and erasure by board and days.';

-- The producer side's login: it may create the day's key and read keys, never change or erase one.
DO $$
BEGIN
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_keys') THEN
            CREATE ROLE electoral_log_keys LOGIN;
        END IF;
    EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
            RAISE NOTICE 'cannot create the login role electoral_log_keys; create it by hand (see V18)';
    END;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_keys') THEN
        EXECUTE 'COMMENT ON ROLE electoral_log_keys IS ''The producer side of the committed form: creates and reads data keys (V18), nothing else.''';
        EXECUTE 'GRANT USAGE ON SCHEMA personal_keys TO electoral_log_keys';
        EXECUTE 'GRANT SELECT, INSERT ON personal_keys.data_keys TO electoral_log_keys';
    END IF;
END
$$;
