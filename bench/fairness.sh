#!/usr/bin/env bash
# What one client's flood costs another client (issue 22): the neighbour's payments/s alone and
# while a flooder hammers one account, with the shop's per-client cap on requests in flight on and
# off. Measured, not asserted; prints a table. Each run starts the shop in this JVM on an embedded
# PostgreSQL in a temporary folder.
# Usage: bench/fairness.sh [seconds per window, default 10] [flood connections, default 64]
#                          [neighbour connections, default 4]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib/test-main.sh
run_test_main dev.once.shop.bench.FairnessBenchmark "$@"
