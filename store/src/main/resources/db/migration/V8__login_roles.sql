-- V8: login roles that can only read (issue 15, docs/security.md). Cluster-wide like V2's
-- electoral_log_reader: created once, a concurrent creator tolerated, left to the operator (with a
-- notice) when this login may not create roles. They have no password here: the operator sets one
-- (ALTER ROLE ... PASSWORD) or maps them in pg_hba.conf.
--   electoral_log_query_api: the query API's login; reads every table (member of electoral_log_reader)
--     and can write nothing, so a flaw in the API cannot change the projection.
--   electoral_log_analyst: analysts' login; reads the analyst_* views and statement_kinds only, never
--     the raw tables (partition_offsets, tiles, senders, ...).
DO $$
BEGIN
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_query_api') THEN
            CREATE ROLE electoral_log_query_api LOGIN NOINHERIT;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_analyst') THEN
            CREATE ROLE electoral_log_analyst LOGIN;
        END IF;
    EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
            RAISE NOTICE 'cannot create the login roles electoral_log_query_api and electoral_log_analyst; create them by hand (see V8)';
    END;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_query_api')
            AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_reader') THEN
        EXECUTE 'COMMENT ON ROLE electoral_log_query_api IS ''The query API login: reads the projection, writes nothing.''';
        EXECUTE 'GRANT USAGE ON SCHEMA public TO electoral_log_query_api';
        EXECUTE 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO electoral_log_query_api';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO electoral_log_query_api';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'electoral_log_analyst') THEN
        EXECUTE 'COMMENT ON ROLE electoral_log_analyst IS ''Analysts: the analyst_* views and statement_kinds, no raw table.''';
        EXECUTE 'GRANT USAGE ON SCHEMA public TO electoral_log_analyst';
        EXECUTE 'GRANT SELECT ON analyst_records, analyst_counts, analyst_boards, statement_kinds TO electoral_log_analyst';
    END IF;
END
$$;
