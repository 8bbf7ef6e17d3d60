#!/bin/bash
# The streaming standby's start (compose service postgres-standby; docs/operations.md "The reference
# topology"). On its first start, a base backup of the primary through a physical replication slot
# (pg_basebackup -R writes primary_conninfo and standby.signal); then the server as a hot standby,
# which the query APIs read from (ELECTORAL_LOG_READ_JDBC_URL) and which is promoted when the primary
# is lost (docker compose exec postgres-standby gosu postgres pg_ctl promote).
set -euo pipefail
mkdir -p "$PGDATA"
chown postgres:postgres "$PGDATA"
chmod 0700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  export PGPASSWORD="$(cat /run/secrets/db-password)"
  until gosu postgres pg_isready -h postgres -U electoral_log -d electoral_log; do sleep 1; done
  gosu postgres pg_basebackup -h postgres -U electoral_log -D "$PGDATA" -R -X stream -C -S standby \
    --checkpoint=fast
fi
exec gosu postgres postgres -c hot_standby=on -c hot_standby_feedback=on "$@"
