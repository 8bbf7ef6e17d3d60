-- V24 (issue 66, decision 128, docs/personal-data.md "The keys"): key custody. The log makes each
-- board's key of a UTC day as an X25519 key pair; producers get the public half and seal openings to
-- it (core ContentKeys), so no producer holds a key that opens anything. The secret half is kept
-- only wrapped under a key-encryption key that PostgreSQL never holds (core KeyEncryptionKeys), so a
-- dump or a standby alone opens nothing. Producers reach the key store through one function that
-- checks which boards their own login may write; the shared producer login of V18 ends.

ALTER TABLE personal_keys.data_keys
    ADD COLUMN public_key bytea CHECK (public_key IS NULL OR octet_length(public_key) = 32),  -- X25519 public half: what producers seal to
    ADD COLUMN wrapped    bytea,  -- the secret, wrapped: the X25519 private half (32 bytes), after it the V18 AES key (32 more) of a row made before V24
    ADD COLUMN kek_id     text;   -- the key-encryption key that wrapped it (KeyEncryptionKeys: 16 hex digits)
COMMENT ON COLUMN personal_keys.data_keys.key IS 'V18: the 32 AES key bytes a producer made, in the clear. Since V24 never written: the projector wraps it into wrapped at its start (store KeyMaker.convertLegacy) and sets this NULL.';
COMMENT ON COLUMN personal_keys.data_keys.public_key IS 'The X25519 public half of the key (V24): producers wrap their content keys to it (core ContentKeys). Kept after erasure (it opens nothing).';
COMMENT ON COLUMN personal_keys.data_keys.wrapped IS 'The secret, AES-256-GCM-wrapped under key-encryption key kek_id with the key_id as additional data (core KeyEncryptionKeys): the X25519 private half, then, for a row made before V24, its AES key. NULL once erased. Read only by the projector''s login (the owner).';
COMMENT ON COLUMN personal_keys.data_keys.kek_id IS 'Which key-encryption key wrapped the secret; electoral-log keys rewrap moves rows to the first configured one. NULL when nothing is wrapped.';
COMMENT ON COLUMN personal_keys.data_keys.created IS 'When the log made the key (V24: store KeyMaker; before, when a producer first needed it).';

-- the V18 rule (a key exists until erased) with the wrapped form beside the clear one
ALTER TABLE personal_keys.data_keys DROP CONSTRAINT data_keys_check;
ALTER TABLE personal_keys.data_keys ADD CONSTRAINT data_keys_secret_until_erased
    CHECK (CASE WHEN erased IS NULL THEN key IS NOT NULL OR wrapped IS NOT NULL
                ELSE key IS NULL AND wrapped IS NULL END);
COMMENT ON CONSTRAINT data_keys_secret_until_erased ON personal_keys.data_keys IS 'A key holds its secret (in the clear before V24, wrapped since) until it is erased, and nothing after.';
ALTER TABLE personal_keys.data_keys ADD CONSTRAINT data_keys_wrapped_by
    CHECK ((wrapped IS NULL) = (kek_id IS NULL));
COMMENT ON CONSTRAINT data_keys_wrapped_by ON personal_keys.data_keys IS 'A wrapped secret names the key-encryption key that wrapped it.';
-- the key ID is its board and day, for every row made from now on: a trigger on INSERT, not a CHECK,
-- since a row planted before V24 with another board must still be erasable (erasure selects by
-- key_id and updates the row: store Erasure)
CREATE FUNCTION personal_keys.key_id_is_board_and_day() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NEW.key_id <> NEW.board || '/' || to_char(NEW.day, 'YYYY-MM-DD') THEN
        RAISE EXCEPTION 'data key % is not named <board>/<yyyy-mm-dd> of its board % and day %', NEW.key_id, NEW.board, NEW.day
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION personal_keys.key_id_is_board_and_day() IS 'Trigger of data_keys_named: key_id = <board>/<yyyy-mm-dd> (core DataKeys.id), so that the name producers and the projector use and the board and day erasure selects are one key.';
CREATE TRIGGER data_keys_named BEFORE INSERT ON personal_keys.data_keys
    FOR EACH ROW EXECUTE FUNCTION personal_keys.key_id_is_board_and_day();
COMMENT ON TRIGGER data_keys_named ON personal_keys.data_keys IS 'Refuses a new key whose key_id is not its board and day (personal_keys.key_id_is_board_and_day).';

CREATE TABLE personal_keys.producer_boards (
    login   name        NOT NULL,  -- a producer's own PostgreSQL login (a member of electoral_log_keys)
    board   text        NOT NULL,  -- a board it may write: exact, no pattern (a reserved board is never granted)
    granted timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (login, board)
);
COMMENT ON TABLE personal_keys.producer_boards IS 'Which boards each producer login may seal openings for (electoral-log keys allow / deny). Read by personal_keys.sealing_key for the calling login (the primary key serves that lookup).';

CREATE TABLE personal_keys.key_requests (
    board        text        NOT NULL,
    day          date        NOT NULL,
    requested_by name        NOT NULL,  -- the producer login that asked
    requested    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (board, day)
);
COMMENT ON TABLE personal_keys.key_requests IS 'Keys producers asked for that the log has not made yet: personal_keys.sealing_key inserts one and notifies electoral_log_key_requested; the projector''s key maker (store KeyMaker) makes the key, deletes the row and notifies electoral_log_key_made. The primary key makes a day''s request once.';

CREATE TABLE personal_keys.erased_statements (
    leaf_hash bytea       PRIMARY KEY CHECK (octet_length(leaf_hash) = 32),  -- the statement's RFC 6962 leaf hash
    board     text        NOT NULL,
    erased    timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE personal_keys.erased_statements IS 'Statements whose values were erased by user (electoral-log erase --user; store Erasure.user): the projector stores them without values whenever it meets them again, in a replay or a rebuild (projector ErasedKeys), so a user erasure holds though the day''s key is kept. Holds leaf hashes, never a value or a user. The primary key serves the batch''s lookup (leaf_hash = ANY(...)).';

-- The producers' one door: the public half of a board's day key, asked for when missing. SECURITY
-- DEFINER so that producer logins need no privilege on the tables; session_user is the caller.
CREATE FUNCTION personal_keys.sealing_key(p_board text, p_day date, OUT key_id text, OUT public_key bytea, OUT erased boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
    key_id := p_board || '/' || to_char(p_day, 'YYYY-MM-DD');
    IF NOT EXISTS (SELECT 1 FROM personal_keys.producer_boards b WHERE b.login = session_user AND b.board = p_board)
       AND session_user <> (SELECT n.nspowner::regrole::name FROM pg_namespace n WHERE n.nspname = 'personal_keys') THEN
        RAISE EXCEPTION 'login % may not write board %', session_user, p_board
            USING ERRCODE = 'insufficient_privilege',
                  HINT = format('an administrator grants it with: electoral-log keys allow --login %s --board %s', session_user, p_board);
    END IF;
    SELECT k.public_key, k.erased IS NOT NULL INTO public_key, erased FROM personal_keys.data_keys k WHERE k.key_id = sealing_key.key_id;
    IF FOUND THEN
        IF public_key IS NULL AND NOT erased THEN  -- a V18 key the projector has not converted yet
            PERFORM pg_notify('electoral_log_key_requested', key_id);
        END IF;
        RETURN;
    END IF;
    IF p_day > today + 1 THEN
        RAISE EXCEPTION 'no key is made for % of board %: the log makes a key for a day before tomorrow (UTC) is over', p_day, p_board
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO personal_keys.key_requests (board, day, requested_by) VALUES (p_board, p_day, session_user) ON CONFLICT DO NOTHING;
    PERFORM pg_notify('electoral_log_key_requested', key_id);
    public_key := NULL;
    erased := false;
END
$$;
COMMENT ON FUNCTION personal_keys.sealing_key(text, date) IS 'A producer''s only access to the key store (store SqlSealingKeys): for a board its login may write (personal_keys.producer_boards; the owner may write all), the key ID, the public half and whether it was erased; when the key does not exist yet, asks the log to make it (public_key NULL), for a day until tomorrow (UTC): no key of a later day, which nobody can yet need.';
REVOKE ALL ON FUNCTION personal_keys.sealing_key(text, date) FROM PUBLIC;

-- The shared producer login of V18 becomes the group of producer logins: it may call the function,
-- nothing else; each producer logs in as its own member (electoral-log keys allow).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_keys') THEN
        EXECUTE 'REVOKE ALL ON personal_keys.data_keys FROM electoral_log_keys';
        EXECUTE 'GRANT EXECUTE ON FUNCTION personal_keys.sealing_key(text, date) TO electoral_log_keys';
        EXECUTE 'COMMENT ON ROLE electoral_log_keys IS ''The producers of the committed form (V24): each producer logs in as a member of its own and may call personal_keys.sealing_key for the boards granted to its login, nothing else.''';
        BEGIN
            EXECUTE 'ALTER ROLE electoral_log_keys NOLOGIN';
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'cannot make electoral_log_keys NOLOGIN; do it by hand (see V24): producers log in as its members';
        END;
    END IF;
END
$$;
