#!/usr/bin/env bash
# Verify every finished game's audit record a server holds (after a restore, say):
#   deploy/verify-exports.sh http://127.0.0.1:8000/v1 [folder]
# pages through GET /v1/exports (NDJSON, Next-Cursor), writes each record to the folder
# and runs `entrepot verify` on it. Exit 0 only when every record verifies.
set -euo pipefail
API=${1:?usage: verify-exports.sh API_BASE_URL [folder]}
DIR=${2:-$(mktemp -d)}
ENTREPOT=${ENTREPOT:-entrepot}
mkdir -p "$DIR"
cursor="" checked=0 failed=0
while :; do
    url="$API/exports?limit=100${cursor:+&cursor=$cursor}"
    headers=$(mktemp)
    curl -fsS -D "$headers" "$url" > "$DIR/page.ndjson"
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        id=$(printf '%s' "$line" | python3 -c 'import json,sys; print(json.load(sys.stdin)["game_id"])')
        printf '%s\n' "$line" > "$DIR/$id.json"
        if $ENTREPOT verify "$DIR/$id.json" > "$DIR/$id.txt"; then
            checked=$((checked + 1))
        else
            failed=$((failed + 1))
            echo "NOT VERIFIED: $id ($(cat "$DIR/$id.txt"))" >&2
        fi
    done < "$DIR/page.ndjson"
    cursor=$(sed -n 's/^[Nn]ext-[Cc]ursor: *\([^[:space:]]*\).*/\1/p' "$headers")
    rm -f "$headers"
    [ -n "$cursor" ] || break
done
echo "verified $checked records, $failed failed (records in $DIR)"
[ "$failed" -eq 0 ]
