-- V9: the sender registry (issue 15, docs/security.md "Writers"): which sender public keys may write
-- which statement kinds on which boards, and when. The projector reads it in each batch's transaction
-- (when ELECTORAL_LOG_SENDER_REGISTRY is ENFORCE) and dead-letters a statement whose key is not
-- registered (SENDER_UNREGISTERED), may not write that kind on that board at that time
-- (SENDER_NOT_PERMITTED) or was revoked before it (SENDER_REVOKED). Rows are never deleted:
-- a revocation closes a grant's validity from its time on, so earlier statements stay valid and the
-- audit can still say which grant let each one in. IF NOT EXISTS: like V7 and V8 it may run again on
-- a database baselined from the hand-written runner (MigrationsTest).

CREATE TABLE IF NOT EXISTS sender_grants (
    grant_id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- named by the admin endpoint and CLI to revoke
    public_key        bytea       NOT NULL CHECK (length(public_key) = 32),  -- the sender's Ed25519 public key (statement sender_public_key)
    sender_name       text        NOT NULL,             -- who holds the key (a service name), for people reading the registry
    board             text        NOT NULL,             -- the board name it may write, or '*' for every board
    kinds             text[]      NOT NULL CHECK (cardinality(kinds) > 0),  -- statement kind names (schemas StatementKinds), or {'*'} for every kind
    valid_from        timestamptz NOT NULL,             -- statements with a Kafka timestamp at or after this are covered
    valid_until       timestamptz,                      -- ... and before this; NULL = open-ended. A revocation sets it
    created           timestamptz NOT NULL DEFAULT now(),
    created_by        text        NOT NULL,             -- the admin (token role or OIDC subject, or the CLI's OS user) who granted it
    revoked           timestamptz,                      -- when it was revoked (NULL = never); valid_until is then at most this plus the grace the admin gave
    revoked_by        text,
    revocation_reason text,
    CHECK (valid_until IS NULL OR valid_until >= valid_from),
    CHECK ((revoked IS NULL) = (revoked_by IS NULL))
);
COMMENT ON TABLE sender_grants IS 'The sender registry: a sender key may write these kinds on this board (or every board) from valid_from until valid_until. Read by the projector per batch for the batch''s keys; listed by GET /admin/senders and `electoral-log senders list`.';
COMMENT ON COLUMN sender_grants.kinds IS 'Statement kind names (schemas StatementKinds.NAMES) or the single element ''*'' for every kind.';

CREATE INDEX IF NOT EXISTS sender_grants_key ON sender_grants (public_key);
COMMENT ON INDEX sender_grants_key IS 'The projector''s lookup of the grants of a batch''s sender keys (public_key = ANY(...)).';

-- The registrar login: the query API's admin endpoints write grants through it, so that the query
-- API's own login (V8) stays read-only. It can read and add grants and revoke them, nothing else.
DO $$
BEGIN
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_registrar') THEN
            CREATE ROLE electoral_log_registrar LOGIN NOINHERIT;
        END IF;
    EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
            RAISE NOTICE 'cannot create the login role electoral_log_registrar; create it by hand (see V9)';
    END;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_registrar') THEN
        EXECUTE 'COMMENT ON ROLE electoral_log_registrar IS ''The sender registry''''s writer: reads and adds sender_grants and revokes them, nothing else.''';
        EXECUTE 'GRANT USAGE ON SCHEMA public TO electoral_log_registrar';
        EXECUTE 'GRANT SELECT, INSERT ON sender_grants TO electoral_log_registrar';
        EXECUTE 'GRANT UPDATE (valid_until, revoked, revoked_by, revocation_reason) ON sender_grants TO electoral_log_registrar';
    END IF;
END
$$;
