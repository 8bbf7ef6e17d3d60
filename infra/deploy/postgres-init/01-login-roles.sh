#!/bin/sh
# Runs once, when the postgres container initialises an empty data directory: creates the query
# API's read-only login with its password (secret query-api-db-password). The projector's first
# migration (store V8) finds it and grants it SELECT on every table, nothing else (docs/security.md).
set -eu
psql -v ON_ERROR_STOP=1 -v pw="$(cat /run/secrets/query-api-db-password)" \
    --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE electoral_log_query_api LOGIN PASSWORD :'pw';
SQL
