#!/usr/bin/env bash
# The Kafka transport's benchmark (docs/benchmarks.md#kafka-transport, issues 23 and 38): once-verify
# relay's phases drain, orders and paced, in process and through Kafka in one run on one embedded
# PostgreSQL (fsync on), the shop as its own process from its jar and the broker (once-verify kafka)
# as another: events/s of a drain of orders placed with the relay off, with its counts per event;
# place -> reserved p50/p99 at 50 connections, with where the orders waited; commit -> effect at a
# low load; then a table against the goals, also written to target/bench/relay-<time>.md.
# Usage: bench/kafka.sh [--no-build] [once-verify relay flags: --orders N, --products N, ...]
#        (java -jar once-verify/target/once-verify.jar relay --help lists every flag; a flag given
#        here, --phases or --kafka included, replaces the one below)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --no-build ]; then
  shift
else
  ./mvnw -q -pl shop,psp-simulator,once-verify -am package -DskipTests
fi
# shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
exec java -Xmx1g ${JAVA_OPTS:-} -jar once-verify/target/once-verify.jar relay \
  --shop-jar shop/target/shop.jar --phases drain,orders,paced --kafka=both "$@"
