#!/bin/sh
# Runs once, when the postgres container initialises an empty data directory: creates the query
# API's read-only login with its password (secret query-api-db-password) and the sender registry's
# writer (secret registrar-db-password). The projector's first migrations find them: store V8 grants
# the first SELECT on every table, nothing else; V9 lets the second add and revoke sender grants,
# nothing else (docs/security.md).
set -eu
psql -v ON_ERROR_STOP=1 -v pw="$(cat /run/secrets/query-api-db-password)" \
    -v rpw="$(cat /run/secrets/registrar-db-password)" \
    --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE electoral_log_query_api LOGIN PASSWORD :'pw';
CREATE ROLE electoral_log_registrar LOGIN NOINHERIT PASSWORD :'rpw';
SQL
