#!/usr/bin/env bash
# Makes the secrets compose.yaml mounts (./secrets/, mode 0600, never overwritten) and the .env file
# compose reads ELECTORAL_LOG_LOG_KEYS (the log's verifier key, public) and ELECTORAL_LOG_WITNESSES
# (compose's witness: its cosigner key and URL) from:
#   infra/deploy/make-secrets.sh <log origin host, e.g. log.election.example>
# The log's signing key is made by `electoral-log keygen log` (built on first use). Keep a copy of
# ./secrets/ somewhere safe and apart from the database (docs/operations.md "Keys").
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ORIGIN="${1:?usage: make-secrets.sh <log origin host, e.g. log.election.example>}"
SECRETS="$HERE/secrets"
umask 077
mkdir -p "$SECRETS"

random() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }

# every secret compose.yaml names, with how it is made (DeploymentFilesTest checks the two lists agree)
for name in db-password query-api-db-password registrar-db-password admin-token cursor-key; do
  if [[ -e "$SECRETS/$name" ]]; then
    echo "make-secrets: $SECRETS/$name exists; left as it is"
    continue
  fi
  case "$name" in
    cursor-key) random 32 > "$SECRETS/$name" ;;            # HMAC key of page cursors, base64
    admin-token) random 30 | tr '+/' '-_' > "$SECRETS/$name" ;;
    *) random 24 | tr '+/' '-_' > "$SECRETS/$name" ;;     # database passwords
  esac
  echo "make-secrets: wrote $SECRETS/$name"
done

if [[ -e "$SECRETS/signing-key" ]]; then
  echo "make-secrets: $SECRETS/signing-key exists; left as it is"
else
  tmp="$(mktemp -d)"
  "$ROOT/electoral-log" keygen log --name "$ORIGIN" --out "$tmp" > /dev/null
  mv "$tmp/$ORIGIN.key" "$SECRETS/signing-key"
  mv "$tmp/$ORIGIN.vkey" "$SECRETS/log-verifier-key"
  rmdir "$tmp"
  echo "make-secrets: wrote $SECRETS/signing-key (the projector signs checkpoints with it)"
fi

if [[ -e "$SECRETS/key-encryption-key" ]]; then
  echo "make-secrets: $SECRETS/key-encryption-key exists; left as it is"
else
  "$ROOT/electoral-log" keys kek --file "$SECRETS/key-encryption-key" > /dev/null
  echo "make-secrets: wrote $SECRETS/key-encryption-key (the projectors wrap the committed form's data keys with it)"
fi

if [[ -e "$SECRETS/witness-key" ]]; then
  echo "make-secrets: $SECRETS/witness-key exists; left as it is"
else
  tmp="$(mktemp -d)"
  "$ROOT/electoral-log" keygen witness --name "witness.$ORIGIN" --out "$tmp" > /dev/null
  mv "$tmp/witness.$ORIGIN.key" "$SECRETS/witness-key"
  mv "$tmp/witness.$ORIGIN.vkey" "$SECRETS/witness-verifier-key"
  rmdir "$tmp"
  echo "make-secrets: wrote $SECRETS/witness-key (compose's witness cosigns with it)"
fi

if [[ -e "$HERE/.env" ]]; then
  echo "make-secrets: $HERE/.env exists; left as it is"
else
  {
    echo "ELECTORAL_LOG_LOG_KEYS=$(cat "$SECRETS/log-verifier-key")"
    echo "ELECTORAL_LOG_WITNESSES=$(cat "$SECRETS/witness-verifier-key") http://witness:7380"
  } > "$HERE/.env"
  chmod 0644 "$HERE/.env"
  echo "make-secrets: wrote $HERE/.env (the log's verifier key, publish it too; the witness's key and URL)"
fi
echo "make-secrets: done; start with: docker compose -f infra/deploy/compose.yaml up -d"
