#!/usr/bin/env bash
# The payment benchmark (GitHub issue 8): SQL floor with and without Once, the shop over HTTP with
# Once on and off, replays and an authenticated GET, in one run on one embedded PostgreSQL; then the
# orders scenario (GitHub issue 9): orders placed per second over HTTP from 50 connections on 10 hot
# SKUs, on a shop with the relay on and a database of its own, place-to-reserved p50/p99, deadlocks
# (must be 0) and the stock's invariants. Only the orders: --scenarios orders.
# Writes results.md, results.json and chart.svg into bench-results/<UTC time> (or --out).
# Usage: bench/payments.sh [--duration 20s] [--warmup 15s] [--connections 16] [--scenarios a,b]
#        [--order-connections 50] ...
#        (java -jar once-verify/target/once-verify.jar bench --help lists every flag)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl shop,once-verify -am package -DskipTests
exec java -jar once-verify/target/once-verify.jar bench --shop-jar shop/target/shop.jar "$@"
