#!/usr/bin/env bash
# Issue 38's benchmark ("Batches, not rows", docs/benchmarks.md#batches-issue-38): one command, each
# figure of the issue against its goal, with per-event counts of each path. Run it before a change
# and after it: the counts come from PostgreSQL and from the shop's /actuator/prometheus by name, and
# a count it cannot take prints "n/a".
#
# Three runs of once-verify relay (the shop as its own process from its jar; Kafka a broker,
# once-verify kafka, as another), each on a fresh embedded PostgreSQL 17 (fsync on):
#   1. --phases http,relay,orders: HTTP new payments relay on / off (as deployed: shedding on in
#      the relay-on shop), commit -> settled p99 under that load, the relay alone on --rows
#      provider.charge rows (with its commits per row), orders at 50 connections on 10 hot products;
#   2. --phases drain,orders,paced --kafka=both with --products' first count (24): the drain of
#      --orders orders in process and through Kafka with per-event counts (commits, statements from
#      pg_stat_statements, WAL fsyncs, row writes, CPU ms of the shop and of PostgreSQL, the relay's
#      rows per claim, per batch and per completion), orders at 50 connections on each transport,
#      and commit -> effect at a low load (--paced orders/s);
#   3. the same with the second count (6 hot products), without the low load.
# Each run's own table and its shops' logs stay in target/bench/batches-<time>/<n>/; one file,
# target/bench/batches-<time>.md (or --out), holds a header and the runs' tables. A run that fails
# leaves its table out (a phase that fails is a "phase failed" row) and the next run starts. A
# benchmark: it asserts nothing. About 15 minutes on 2 cores.
#
# Usage: bench/batches.sh [flags]
#   --rows N           relay alone: pre-filled provider.charge rows (50000)
#   --relay-seconds S  run 1: measured window of each HTTP load (15; warm-up 8)
#   --orders N         runs 2 and 3: orders drained per transport (3000)
#   --kafka-seconds S  runs 2 and 3: window of the orders at 50 connections (20; warm-up 5)
#   --paced R          run 2: orders/s of the low load (20; 0: not run)
#   --paced-seconds S  run 2: measured window of the low load (15)
#   --products A,B     products of runs 2 and 3 (24,6)
#   --relay-arg ARG    another argument for run 1 (repeatable)
#   --kafka-arg ARG    another argument for runs 2 and 3 (repeatable)
#   --no-build         use the jars already built
#   --out FILE         the combined tables (target/bench/batches-<time>.md)
set -euo pipefail
cd "$(dirname "$0")/.."

rows=50000 relay_seconds=15 orders=3000 kafka_seconds=20 paced=20 paced_seconds=15
products=24,6 build=1 out=
relay_args=() kafka_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows=$2; shift 2 ;;
    --relay-seconds) relay_seconds=$2; shift 2 ;;
    --orders) orders=$2; shift 2 ;;
    --kafka-seconds) kafka_seconds=$2; shift 2 ;;
    --paced) paced=$2; shift 2 ;;
    --paced-seconds) paced_seconds=$2; shift 2 ;;
    --products) products=$2; shift 2 ;;
    --relay-arg) relay_args+=("$2"); shift 2 ;;
    --kafka-arg) kafka_args+=("$2"); shift 2 ;;
    --no-build) build=0; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown flag $1 (bench/batches.sh --help)" >&2; exit 2 ;;
  esac
done

time=$(date +%Y%m%d-%H%M%S)
work=target/bench/batches-$time
out=${out:-target/bench/batches-$time.md}
mkdir -p "$work"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date +%s)
echo "bench/batches.sh: load average before $load_before; runs in $work"

if [ "$build" = 1 ]; then
  # One reactor: the shop's jar and once-verify's, from this tree (never a snapshot from ~/.m2).
  ./mvnw -q -pl shop,psp-simulator,once-verify -am package -DskipTests
fi

# relay N DESCRIPTION FLAGS...: one run of once-verify relay, its table in $work/N.
relay() {
  local n=$1 what=$2
  shift 2
  echo "== $n: once-verify relay, $what"
  # shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
  if ! java -Xmx1g ${JAVA_OPTS:-} -jar once-verify/target/once-verify.jar relay \
    --shop-jar shop/target/shop.jar --out "$work/$n" "$@"; then
    echo "once-verify relay ($what) failed: its table is left out"
  fi
}

relay 1 "http, relay, orders" --phases http,relay,orders --rows "$rows" \
  --seconds "$relay_seconds" ${relay_args[@]+"${relay_args[@]}"}
runs=1
for count in ${products//,/ }; do
  runs=$((runs + 1))
  low=()
  if [ "$runs" = 2 ] && [ "$paced" != 0 ]; then
    low=(--phases drain,orders,paced --paced "$paced" --paced-seconds "$paced_seconds")
  fi
  relay "$runs" "drain and orders in process and through Kafka, $count products" \
    --phases drain,orders ${low[@]+"${low[@]}"} --kafka=both --products "$count" \
    --order-products "$count" --orders "$orders" --seconds "$kafka_seconds" --warmup 5 \
    ${kafka_args[@]+"${kafka_args[@]}"}
done

elapsed=$(( $(date +%s) - started ))
{
  echo "# Batches benchmark (bench/batches.sh, issue 38), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "- code: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)') on branch $(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo '?')"
  echo "- sizes: relay --rows $rows, HTTP windows ${relay_seconds} s; drains of $orders orders per transport, orders at 50 connections for ${kafka_seconds} s, products $products, low load $paced orders/s for ${paced_seconds} s (second run only); extra args of run 1: ${relay_args[*]:-none}; of runs 2 and 3: ${kafka_args[*]:-none}"
  echo "- machine: $(nproc) CPUs, load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1); the runs took ${elapsed} s"
  for n in $(seq 1 "$runs"); do
    table=$(ls -t "$work/$n"/relay-*.md 2>/dev/null | head -1 || true)
    echo
    if [ -n "$table" ]; then
      sed 's/^# /## /' "$table"
    else
      echo "## Run $n: no table (it failed before writing one; its output above)"
    fi
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
echo "written to $(realpath "$out")"
