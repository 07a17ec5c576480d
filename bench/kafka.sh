#!/usr/bin/env bash
# The Kafka transport's benchmark (docs/benchmarks.md, issue 23): in one run on one embedded
# PostgreSQL, the shop's order events in process and through Kafka, the same measures for both:
# events/s from commit to consumer effect while draining pre-placed orders, and place -> reserved
# p50/p99 under the same HTTP load; then a table against the goals, also written to
# target/bench/kafka-<time>.md.
# Usage: bench/kafka.sh [--orders N] [--connections N] [--seconds S] [--bootstrap host:port] ...
#        bench/kafka.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/test-main.sh
run_test_main dev.once.shop.bench.KafkaBenchmark "$@"
