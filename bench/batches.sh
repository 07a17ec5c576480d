#!/usr/bin/env bash
# Issue 38's benchmark ("Batches, not rows", docs/benchmarks.md#batches-issue-38): one command, one
# run, one table of each figure of the issue against its goal, with per-event counts of each path.
# Run it before a change and after it: it uses no API the issue adds (meters and client metrics are
# read by name, and a count it cannot take prints "n/a").
#
# In this order, each part on a fresh embedded PostgreSQL 17 (fsync on):
#   1. once-verify relay --phases http,relay,orders: HTTP new payments relay on / off (as
#      deployed: shedding on in the relay-on shop), commit -> settled p99 under that load, the relay
#      alone on --rows provider.charge rows (with its commits per row), orders at 50 connections;
#      the shop as its own process from its jar;
#   2. KafkaBenchmark (bench/kafka.sh) with --products' first count (24): the drain of --orders
#      orders in process and through Kafka (broker in the JVM) with per-event counts (commits,
#      statements from pg_stat_statements, WAL syncs, row writes, CPU ms of the JVM and of
#      PostgreSQL, Kafka requests, rows per claim), orders at 50 connections, and commit -> effect
#      at a low load (--paced orders/s);
#   3. the same with the second count (6 hot products), without the low load.
# Then BatchesReport prints one table and writes it to target/bench/batches-<time>.md (or --out);
# each part's own output stays in target/bench/batches-<time>/. A part that fails leaves its rows
# "not measured" and the next part runs. A benchmark: it asserts nothing. About 12 minutes on 2 cores.
#
# Usage: bench/batches.sh [flags]
#   --rows N           relay alone: pre-filled provider.charge rows (50000)
#   --relay-seconds S  relay: measured window of each HTTP load (15; warm-up 8)
#   --orders N         Kafka benchmark: orders drained per transport (3000)
#   --kafka-seconds S  Kafka benchmark: window of the orders at 50 connections (20; warm-up 5)
#   --paced R          low load: orders/s for commit -> effect (20; 0: not run)
#   --paced-seconds S  low load: measured window (15)
#   --products A,B     products of each Kafka benchmark run (24,6)
#   --relay-arg ARG    another argument for once-verify relay (repeatable)
#   --kafka-arg ARG    another argument for each KafkaBenchmark run (repeatable)
#   --no-build         use the jars and classes already built
#   --out FILE         the combined table (target/bench/batches-<time>.md)
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
echo "bench/batches.sh: load average before $load_before; parts in $work"

if [ "$build" = 1 ]; then
  # One reactor: the shop's jar, once-verify's, and the shop's test class path, all from this tree
  # (never a snapshot from ~/.m2).
  ./mvnw -q -pl shop,psp-simulator,once-verify -am package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
fi
cp=shop/target/test-classes:shop/target/classes:$(cat shop/target/bench-classpath.txt)

echo "== 1/3 once-verify relay --phases http,relay,orders"
# shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
verify_jar=once-verify/target/once-verify.jar
if ! java -Xmx1g ${JAVA_OPTS:-} -jar "$verify_jar" relay \
  --shop-jar shop/target/shop.jar --phases http,relay,orders --rows "$rows" \
  --seconds "$relay_seconds" --out "$work/relay" ${relay_args[@]+"${relay_args[@]}"}; then
  echo "once-verify relay failed: its rows stay not measured"
fi
relay_md=$(ls -t "$work"/relay/relay-*.md 2>/dev/null | head -1 || true)

kafka_facts=()
part=2
for count in ${products//,/ }; do
  echo "== $part/3 KafkaBenchmark, $count products"
  pace=0
  if [ "$part" = 2 ]; then pace=$paced; fi
  # shellcheck disable=SC2086
  java -Xmx1g ${JAVA_OPTS:-} -cp "$cp" dev.once.shop.bench.KafkaBenchmark --skus "$count" \
    --orders "$orders" --seconds "$kafka_seconds" --counts on --paced "$pace" \
    --paced-seconds "$paced_seconds" --facts "$work/kafka-$count.properties" --out "$work" \
    ${kafka_args[@]+"${kafka_args[@]}"} \
    || echo "KafkaBenchmark ($count products) failed (exit $?): its rows stay not measured"
  kafka_facts+=(--kafka "$work/kafka-$count.properties")
  part=$((part + 1))
done

elapsed=$(( $(date +%s) - started ))
java -cp "$cp" dev.once.shop.bench.BatchesReport \
  --header "# Batches benchmark (bench/batches.sh, issue 38), $(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  --header "" \
  --header "- code: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)') on branch $(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo '?')" \
  --header "- sizes: relay --rows $rows, HTTP windows ${relay_seconds} s; Kafka benchmark --orders $orders per drain, orders at 50 connections for ${kafka_seconds} s, products $products, low load $paced orders/s for ${paced_seconds} s (first Kafka run only); extra relay args: ${relay_args[*]:-none}; extra Kafka args: ${kafka_args[*]:-none}" \
  --header "- machine: $(nproc) CPUs, load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1); the run took ${elapsed} s" \
  --header "- PostgreSQL 17 (embedded, zonky binaries, fsync on, synchronous_commit on); Kafka: a KRaft broker in the benchmark's JVM" \
  --relay "${relay_md:-}" "${kafka_facts[@]}" --out "$out"
