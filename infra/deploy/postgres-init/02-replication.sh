#!/bin/sh
# Runs once, when the postgres container initialises an empty data directory: lets the standby
# (compose service postgres-standby) take its base backup and stream the WAL as the owner login
# (docs/operations.md "The reference topology"). The official image allows ordinary connections
# only; a replication connection needs its own pg_hba line.
set -eu
echo "host replication $POSTGRES_USER all scram-sha-256" >> "$PGDATA/pg_hba.conf"
