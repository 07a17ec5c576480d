#!/usr/bin/env bash
# Black-box checks of the limits, failover and money rules (issue 22) against the built jar, the way
# a user drives it: curl over HTTP, the shop on its embedded PostgreSQL in a temporary folder, SQL as
# the embedded server's superuser where a failover has to be staged. Prints one line per check,
# PASS or FAIL, and exits 1 if any failed. Needs curl and a JDK; builds the shop unless --no-build.
# Usage: bench/blackbox.sh [--no-build] [--flood-seconds 10] [--flooders 64]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/shop.sh

BUILD=1
FLOOD_SECONDS=10
FLOODERS=64
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) BUILD=; shift ;;
    --flood-seconds) FLOOD_SECONDS=$2; shift 2 ;;
    --flooders) FLOODERS=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | cut -c3-; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -z "$BUILD" ] || shop_build

FAILED=0
check() { # NAME CONDITION-RESULT(0/1) DETAIL
  if [ "$2" = 0 ]; then echo "PASS  $1  ($3)"; else echo "FAIL  $1  ($3)"; FAILED=1; fi
}

shop_start
WORK=$SHOP_DIR/blackbox
mkdir -p "$WORK"

# pgJDBC from the shop's own jar, for the superuser's statements.
(cd "$WORK" && jar xf "$OLDPWD/shop/target/shop.jar" $(jar tf "$OLDPWD/shop/target/shop.jar" | grep 'BOOT-INF/lib/postgresql-'))
PGJAR=$(ls "$WORK"/BOOT-INF/lib/postgresql-*.jar)
PGPORT=$(sed -n 4p "$SHOP_DIR/data/postgres/postmaster.pid")
sql() { java -cp "$PGJAR" bench/lib/Sql.java "jdbc:postgresql://localhost:$PGPORT/shop" postgres \
          "$SHOP_DIR/data/postgres/postgres.password" "$@"; }

new_client() { # prints the API key
  curl -s -X POST "$SHOP_URL/admin/v1/clients" -H "Authorization: Bearer $SHOP_ADMIN" \
    -H 'Content-Type: application/json' -d "{\"name\":\"$1\"}" | grep -o '"apiKey":"[^"]*"' | cut -d'"' -f4
}
# post KEY PATH IDEMPOTENCY-KEY BODY: prints "<status> <body>"
post() {
  curl -s -X POST "$SHOP_URL$2" -H "Authorization: Bearer $1" -H "Idempotency-Key: $3" \
    -H 'Content-Type: application/json' -d "$4" -w ' %{http_code}' | awk '{code=$NF; $NF=""; print code, $0}'
}
get() { curl -s "$SHOP_URL$2" -H "Authorization: Bearer $1"; }
field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }
status() { cut -d' ' -f1; }
# await KEY PATH FIELD VALUE: polls a GET until FIELD is VALUE, at most 30 s
await() {
  local i
  for i in $(seq 1 150); do
    [ "$(get "$1" "$2" | field "$3")" = "$4" ] && return 0
    sleep 0.2
  done
  return 1
}
account() { # KEY CURRENCY DEPOSIT -> account id
  local id
  id=$(post "$1" /v1/accounts "acc-$RANDOM$RANDOM" "{\"currency\":\"$2\"}" | cut -d' ' -f2- | field id)
  [ -z "$3" ] || post "$1" "/v1/accounts/$id/deposits" "dep-$RANDOM$RANDOM" "{\"amount\":\"$3\"}" >/dev/null
  echo "$id"
}

echo "== 4. Money rules"
KEY=$(new_client money)
EUR=$(account "$KEY" EUR 100.00)
JPY=$(account "$KEY" JPY 1000)
KWD=$(account "$KEY" KWD 10.000)
for case in "$EUR 0.001" "$JPY 1.5" "$KWD 0.0001"; do
  set -- $case
  answer=$(post "$KEY" "/v1/accounts/$1/deposits" "minor-$RANDOM$RANDOM" "{\"amount\":\"$2\"}")
  check "deposit of $2 in $(get "$KEY" "/v1/accounts/$1" | field currency) is 422 invalid-amount" \
    "$([[ $answer == 422* && $answer == *invalid-amount* ]]; echo $?)" "${answer:0:3}"
done
check "nothing was written by the refused amounts" \
  "$([ "$(get "$KEY" "/v1/accounts/$EUR" | field balance)" = 100.0000 ]; echo $?)" \
  "EUR balance $(get "$KEY" "/v1/accounts/$EUR" | field balance)"
answer=$(post "$KEY" "/v1/accounts/$JPY/deposits" "jpy-ok" '{"amount":"15"}')
check "a whole JPY amount is taken" "$([[ $answer == 201* ]]; echo $?)" "${answer:0:3}"

PAY=$(post "$KEY" /v1/payments pay-1 "{\"accountId\":\"$EUR\",\"amount\":\"20.00\",\"currency\":\"EUR\"}" | cut -d' ' -f2- | field id)
await "$KEY" "/v1/payments/$PAY" status succeeded || true
answer=$(post "$KEY" "/v1/payments/$PAY/refunds" ref-1 '{"amount":"5.00"}')
balance_at_request=$(get "$KEY" "/v1/accounts/$EUR" | field balance)
check "a refund answers pending and credits nothing yet" \
  "$([[ $answer == 201* && $answer == *pending* && $balance_at_request == 80.0000 ]]; echo $?)" \
  "${answer:0:3}, balance $balance_at_request"
await "$KEY" "/v1/payments/$PAY/refunds" status succeeded || true
check "the refund credits the account once the provider confirmed it" \
  "$([ "$(get "$KEY" "/v1/accounts/$EUR" | field balance)" = 85.0000 ]; echo $?)" \
  "balance $(get "$KEY" "/v1/accounts/$EUR" | field balance)"
answer=$(post "$KEY" "/v1/payments/$PAY/refunds" ref-refused '{"amount":"1.52"}')
sleep 2
check "a refund the provider refuses never moves money" \
  "$([ "$(get "$KEY" "/v1/accounts/$EUR" | field balance)" = 85.0000 ]; echo $?)" \
  "${answer:0:3}, balance $(get "$KEY" "/v1/accounts/$EUR" | field balance)"
over=$(post "$KEY" "/v1/payments/$PAY/refunds" ref-over '{"amount":"15.01"}')
check "refunds never exceed the payment" "$([[ $over == 422* ]]; echo $?)" "${over:0:3} $(echo "$over" | field type | sed 's|.*/||')"

post "$KEY" /v1/products prod-1 '{"sku":"BB-TEA","name":"Tea","price":"4.20","currency":"EUR","stock":10}' >/dev/null
ORD=$(post "$KEY" /v1/orders ord-1 "{\"accountId\":\"$EUR\",\"items\":[{\"sku\":\"BB-TEA\",\"quantity\":1}]}" | cut -d' ' -f2- | field id)
await "$KEY" "/v1/orders/$ORD" status reserved || true
curl -s -X POST "$SHOP_URL/v1/orders/$ORD/pay" -H "Authorization: Bearer $KEY" -H 'Idempotency-Key: ord-1-pay' >/dev/null
await "$KEY" "/v1/orders/$ORD" status paid || true
OPAY=$(get "$KEY" "/v1/orders/$ORD" | field paymentId)
answer=$(post "$KEY" "/v1/payments/$OPAY/refunds" ord-ref '{"amount":"1.00"}')
check "an order's payment is refunded through its order only" \
  "$([[ $answer == 422* && $answer == *payment-belongs-to-order* ]]; echo $?)" "${answer:0:3}"

echo "== 2. No client can exhaust the service"
FLOODER=$(new_client flooder)
NEIGHBOUR=$(new_client neighbour)
HOT=$(account "$FLOODER" EUR 1000000.00)
NACC=$(account "$NEIGHBOUR" EUR 1000000.00)
# Waits for the given jobs only: a bare `wait` would wait for the shop too.
wait_for() { local pid; for pid in "$@"; do wait "$pid" || true; done; }
neighbour_window() { # SECONDS OUT: 4 sequential payers, one status per line
  local end=$((SECONDS + $1)) w pids=()
  for w in 1 2 3 4; do
    ( while [ $SECONDS -lt $end ]; do
        curl -s -o /dev/null -w '%{http_code}\n' -X POST "$SHOP_URL/v1/payments" -H "Authorization: Bearer $NEIGHBOUR" \
          -H "Idempotency-Key: n-$w-$RANDOM$RANDOM$RANDOM" -H 'Content-Type: application/json' \
          -d "{\"accountId\":\"$NACC\",\"amount\":\"1.00\",\"currency\":\"EUR\"}"
      done >> "$2" ) &
    pids+=($!)
  done
  wait_for "${pids[@]}"
}
neighbour_window "$FLOOD_SECONDS" "$WORK/alone"
end=$((SECONDS + FLOOD_SECONDS + 2))
flood=()
for w in $(seq 1 "$FLOODERS"); do
  ( while [ $SECONDS -lt $end ]; do
      curl -s -o /dev/null -w '%{http_code}\n' -X POST "$SHOP_URL/v1/accounts/$HOT/deposits" \
        -H "Authorization: Bearer $FLOODER" -H "Idempotency-Key: f-$w-$RANDOM$RANDOM$RANDOM" \
        -H 'Content-Type: application/json' -d '{"amount":"1.00"}'
    done >> "$WORK/flood" ) &
  flood+=($!)
done
sleep 1
neighbour_window "$FLOOD_SECONDS" "$WORK/during"
wait_for "${flood[@]}"
alone=$(grep -c . "$WORK/alone"); during=$(grep -c . "$WORK/during")
codes() { sort "$1" | uniq -c | awk '{printf "%s×%s ", $2, $1}'; }
check "the neighbour's payments all succeed during the flood" \
  "$([ "$(grep -vc '^201$' "$WORK/during" || true)" = 0 ]; echo $?)" "$(codes "$WORK/during")"
check "the flooder is refused 429 beyond its cap" \
  "$(grep -q '^429$' "$WORK/flood"; echo $?)" "$(codes "$WORK/flood")"
echo "      neighbour: $((alone / FLOOD_SECONDS)) payments/s alone, $((during / FLOOD_SECONDS)) during a flood of $FLOODERS connections"
check "no 5xx for anybody" "$(! grep -q '^5' "$WORK/flood" "$WORK/during" "$WORK/alone"; echo $?)" "flood, neighbour"
deposited=$(sql "SELECT count(*) FROM operation WHERE account_id = '$HOT' AND kind = 'deposit'" 2>/dev/null || echo '?')
ok=$(grep -c '^201$' "$WORK/flood" || true)
check "every deposit the flooder was refused left nothing behind" \
  "$([ "$deposited" = "$((ok + 1))" ]; echo $?)" "$ok answered 201, $deposited deposit rows (with the opening one)"

echo "== 2. A valid key is served after a restart"
BURST=$(new_client burst)
BACC=$(account "$BURST" EUR 100.00)
kill "$SHOP_PID"; wait "$SHOP_PID" 2>/dev/null || true
(cd "$SHOP_DIR" && exec java -Xmx512m -jar "$OLDPWD/shop/target/shop.jar" --server.port="$SHOP_PORT" \
  --logging.level.root=WARN >> "$SHOP_DIR/shop.log" 2>&1) &
SHOP_PID=$!
for i in $(seq 1 240); do curl -sf "$SHOP_URL/actuator/health/readiness" >/dev/null 2>&1 && break; sleep 0.5; done
burst=()
for i in $(seq 1 64); do
  curl -s -o /dev/null -w '%{http_code}\n' "$SHOP_URL/v1/accounts/$BACC" -H "Authorization: Bearer $BURST" >> "$WORK/burst" &
  burst+=($!)
done
wait_for "${burst[@]}"
check "64 concurrent requests of a valid key, first after a restart, get no 503" \
  "$(! grep -q '^503$' "$WORK/burst"; echo $?)" "$(codes "$WORK/burst")"

echo "== 1. A read-only database is an outage, not a bug"
PGPORT=$(sed -n 4p "$SHOP_DIR/data/postgres/postmaster.pid")
errors_before=$(grep -c ' ERROR ' "$SHOP_DIR/shop.log" || true)
sql "ALTER DATABASE shop SET default_transaction_read_only = on" \
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'shop' AND usename = 'shop_app'" >/dev/null
ro=$(curl -s -i -X POST "$SHOP_URL/v1/payments" -H "Authorization: Bearer $KEY" -H 'Idempotency-Key: ro-1' \
      -H 'Content-Type: application/json' -d "{\"accountId\":\"$EUR\",\"amount\":\"1.00\",\"currency\":\"EUR\"}")
for i in 1 2 3 4 5; do
  curl -s -o /dev/null -X POST "$SHOP_URL/v1/payments" -H "Authorization: Bearer $KEY" -H "Idempotency-Key: ro-more-$i" \
    -H 'Content-Type: application/json' -d "{\"accountId\":\"$EUR\",\"amount\":\"1.00\",\"currency\":\"EUR\"}"
done
check "a write on a read-only server answers 503 with Retry-After" \
  "$([[ $ro == *" 503"* && $ro == *Retry-After* && $ro == *service-unavailable* ]]; echo $?)" "$(echo "$ro" | head -1 | tr -d '\r')"
errors_after=$(grep -c ' ERROR ' "$SHOP_DIR/shop.log" || true)
check "no ERROR logged for it" "$([ "$errors_after" = "$errors_before" ]; echo $?)" "$((errors_after - errors_before)) new ERROR lines"
sql "SET default_transaction_read_only = off" "ALTER DATABASE shop RESET default_transaction_read_only" >/dev/null
attempts=0
while [ $attempts -lt 25 ]; do
  attempts=$((attempts + 1))
  code=$(post "$KEY" /v1/payments ro-1 "{\"accountId\":\"$EUR\",\"amount\":\"1.00\",\"currency\":\"EUR\"}" | status)
  [ "$code" = 503 ] || break
done
check "once writable again, the retry succeeds: the pool dropped its read-only connections" \
  "$([ "$code" = 201 ]; echo $?)" "$code after $attempts attempt(s)"

echo
[ "$FAILED" = 0 ] && echo "All checks passed." || echo "Some checks FAILED."
exit "$FAILED"
