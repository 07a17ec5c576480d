#!/usr/bin/env bash
# The relay's benchmark (docs/benchmarks.md, issues 6 and 21): in one run on one embedded
# PostgreSQL, HTTP new payments with the relay on and off, the relay alone draining pre-filled
# provider.charge rows (with commits and row writes per row), one hot aggregate, orders at 50
# connections, a transaction held open, a child shop killed with SIGKILL, and the purges (one run
# on a backlog of expired keys and inbox records, timed; table sizes under sustained load with 5 s
# retentions); then a table of each measure against its goal, also written to
# target/bench/relay-<time>.md.
# Usage: bench/relay.sh [--phases http,relay,hot,orders,horizon,kill,purge] [--rows N] ...
#        bench/relay.sh --help    lists every flag; the issue 6 form [rows] [seconds] [clients] works
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/test-main.sh
run_test_main dev.once.shop.bench.RelayBenchmark "$@"
