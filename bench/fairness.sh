#!/usr/bin/env bash
# What one client's flood costs another client (issue 22): the neighbour's payments/s alone and
# while a flooder hammers one account, with the shop's per-client cap on requests in flight on and
# off. Measured, not asserted; prints a table and writes it to <results>/fairness.md. It is
# once-verify bench's scenario fairness: the shop as its own process from its jar, one per cap
# setting, on an embedded PostgreSQL in once-verify's JVM, which also runs both loads.
# Usage: bench/fairness.sh [seconds per window, default 10] [flood connections, default 64]
#                          [neighbour connections, default 4] [more flags of once-verify bench]
#        (java -jar once-verify/target/once-verify.jar bench --help lists every flag)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
flood=${2:-64}
neighbour=${3:-4}
shift $(($# < 3 ? $# : 3))
./mvnw -q -pl shop,psp-simulator,once-verify -am package -DskipTests
# shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
exec java -Xmx1g ${JAVA_OPTS:-} -jar once-verify/target/once-verify.jar bench \
  --shop-jar shop/target/shop.jar --scenarios fairness --duration "${seconds}s" --warmup 3s \
  --flood-connections "$flood" --neighbour-connections "$neighbour" "$@"
