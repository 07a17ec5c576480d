#!/usr/bin/env bash
# Benchmarks of the idempotent payment path of shop, on this machine, against the embedded
# PostgreSQL. Needs wrk (Debian: apt-get install wrk). Prints throughput and latency per scenario.
# Usage: bench/run.sh [duration, default 20s] [connections, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-20s}
CONNECTIONS=${2:-16}
PORT=${BENCH_PORT:-18190}
ADMIN=bench-admin-token-0123456789
DATA=$(mktemp -d)
BASE=http://localhost:$PORT

command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
./mvnw -q -pl shop -am package -DskipTests

java -Xmx1g -jar shop/target/shop.jar --server.port=$PORT --shop.admin-token=$ADMIN \
  --shop.embedded-postgres.data-dir=$DATA/pg --logging.level.root=WARN \
  --once.idempotency.limits.max-in-flight-per-client=0 --once.idempotency.limits.new-keys-per-minute=0 \
  > $DATA/shop.log 2>&1 &
SHOP=$!
trap 'kill $SHOP 2>/dev/null; wait $SHOP 2>/dev/null; rm -rf $DATA' EXIT
[ -n "${BENCH_DEBUG:-}" ] && trap 'kill $SHOP 2>/dev/null; wait $SHOP 2>/dev/null; echo "kept $DATA"' EXIT
for _ in $(seq 1 120); do curl -sf $BASE/actuator/health >/dev/null && break; sleep 0.5; done

field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }
post() { curl -sf -X POST "$BASE$1" -H "Authorization: Bearer $API_KEY" \
  -H "Idempotency-Key: setup-$RANDOM-$RANDOM-$RANDOM" -H 'Content-Type: application/json' -d "$2"; }

API_KEY=$(curl -sf -X POST $BASE/admin/v1/clients -H "Authorization: Bearer $ADMIN" \
  -H 'Content-Type: application/json' -d '{"name":"bench"}' | field apiKey)
ACCOUNTS=""
for i in $(seq 1 32); do
  acc=$(post /v1/accounts '{"currency":"EUR"}' | field id)
  post /v1/accounts/$acc/deposits '{"amount":"1000000.00"}' >/dev/null
  ACCOUNTS="$ACCOUNTS${ACCOUNTS:+,}$acc"
done
FIRST=${ACCOUNTS%%,*}
export API_KEY ACCOUNTS

scenario() {
  local name=$1; shift
  echo "== $name"
  env "$@" wrk -t2 -c$CONNECTIONS -d$DURATION --latency -s bench/payments.lua $BASE \
    | grep -E 'Requests/sec|^ +(50|90|99)%|requests=|first non' | sed 's/^ */   /'
}

# Warm-up (JIT, connection pool, prepared statements); not reported.
RUN=warm env wrk -t2 -c$CONNECTIONS -d5s -s bench/payments.lua $BASE >/dev/null
scenario "new payments, 32 accounts (claim + charge + outbox + stored answer, one transaction)" RUN=a
scenario "new payments, one hot account (row lock serializes the charges)" RUN=b ACCOUNTS=$FIRST
curl -sf -X POST "$BASE/v1/payments" -H "Authorization: Bearer $API_KEY" -H 'Idempotency-Key: replayed-key' \
  -H 'Content-Type: application/json' -d "{\"accountId\":\"$FIRST\",\"amount\":\"0.01\",\"currency\":\"EUR\"}" >/dev/null
scenario "replays of one completed key (no execution)" RUN=c REPLAY_KEY=replayed-key
echo "== GET /v1/accounts/{id} (authentication + one read; baseline without Once)"
wrk -t2 -c$CONNECTIONS -d$DURATION --latency -H "Authorization: Bearer $API_KEY" $BASE/v1/accounts/$FIRST \
  | grep -E 'Requests/sec|^ +(50|90|99)%' | sed 's/^ */   /'

echo "== the hot account afterwards"
curl -sf $BASE/v1/accounts/$FIRST -H "Authorization: Bearer $API_KEY"; echo
