#!/usr/bin/env bash
# A/B benchmark of new idempotent payments between two commits, in one run on this machine: both
# shop jars are built, then run one after the other, ROUNDS times in alternation (A B A B ...), each
# on a fresh embedded PostgreSQL, so the machine's drift hits both alike. Prints req/s per round and
# the ratio of the medians. Needs wrk (Debian: apt-get install wrk).
# Usage: bench/ab.sh <rev-a> <rev-b> [rounds, default 3] [duration, default 20s] [connections, 16]
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:?rev a}; B=${2:?rev b}; ROUNDS=${3:-3}; DURATION=${4:-20s}; CONNECTIONS=${5:-16}
PORT=${BENCH_PORT:-18191}
BASE=http://localhost:$PORT
WORK=$(mktemp -d)
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
cleanup() {
  [ -n "${SHOP:-}" ] && kill "$SHOP" 2>/dev/null && wait "$SHOP" 2>/dev/null
  for rev in a b; do git worktree remove --force "$WORK/src-$rev" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

build() { # name rev
  git worktree add -q --detach "$WORK/src-$1" "$2"
  (cd "$WORK/src-$1" && ./mvnw -q -pl shop -am package -DskipTests)
  cp "$WORK/src-$1/shop/target/shop.jar" "$WORK/$1.jar"
}
build a "$A"; build b "$B"

field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }

run_once() { # name -> prints req/s
  local data="$WORK/data-$1-$RANDOM" admin="ab-admin-$RANDOM$RANDOM$RANDOM"
  mkdir -p "$data"
  java -Xmx1g -jar "$WORK/$1.jar" --server.port=$PORT --shop.admin-token=$admin \
    --shop.embedded-postgres.data-dir="$data/pg" --logging.level.root=WARN \
    --once.idempotency.limits.max-in-flight-per-client=0 --once.idempotency.limits.new-keys-per-minute=0 \
    > "$data/shop.log" 2>&1 &
  SHOP=$!
  for _ in $(seq 1 240); do curl -sf $BASE/actuator/health >/dev/null && break; sleep 0.5; done
  local key acc accounts=""
  key=$(curl -sf -X POST $BASE/admin/v1/clients -H "Authorization: Bearer $admin" \
    -H 'Content-Type: application/json' -d '{"name":"ab"}' | field apiKey)
  for i in $(seq 1 32); do
    acc=$(curl -sf -X POST $BASE/v1/accounts -H "Authorization: Bearer $key" -H "Idempotency-Key: a$i" \
      -H 'Content-Type: application/json' -d '{"currency":"EUR"}' | field id)
    curl -sf -X POST $BASE/v1/accounts/$acc/deposits -H "Authorization: Bearer $key" \
      -H "Idempotency-Key: d$i" -H 'Content-Type: application/json' -d '{"amount":"1000000.00"}' >/dev/null
    accounts="$accounts${accounts:+,}$acc"
  done
  API_KEY=$key ACCOUNTS=$accounts RUN=warm wrk -t2 -c$CONNECTIONS -d10s -s bench/payments.lua $BASE >/dev/null
  API_KEY=$key ACCOUNTS=$accounts RUN=m wrk -t2 -c$CONNECTIONS -d$DURATION -s bench/payments.lua $BASE \
    | awk '/Requests\/sec/ {print $2}'
  kill $SHOP; wait $SHOP 2>/dev/null || true; SHOP=
  rm -rf "$data"
}

ra=(); rb=()
for r in $(seq 1 "$ROUNDS"); do
  x=$(run_once a); ra+=("$x"); echo "round $r  A ($A): $x req/s"
  y=$(run_once b); rb+=("$y"); echo "round $r  B ($B): $y req/s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
ma=$(median "${ra[@]}"); mb=$(median "${rb[@]}")
echo "median A: $ma req/s, median B: $mb req/s, B/A: $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.3f", b/a}')"
