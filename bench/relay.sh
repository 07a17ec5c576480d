#!/usr/bin/env bash
# The relay's benchmark (docs/benchmarks.md, issues 6, 21 and 22): in one run on one embedded
# PostgreSQL, HTTP new payments with the relay on and off, the relay alone draining pre-filled
# provider.charge rows (with commits and row writes per row), one hot aggregate, orders at 50
# connections, a transaction held open, a shop killed with SIGKILL, and the purges (one run on a
# backlog of expired keys and inbox records, timed; table sizes under sustained load with 5 s
# retentions); then a table of each measure against its goal, also written to
# target/bench/relay-<time>.md (or --out <dir>). The shop runs as its own process from its jar;
# PostgreSQL and the load generator run in once-verify's JVM.
# Usage: bench/relay.sh [--phases http,relay,archive,hot,orders,horizon,kill,purge] [--rows N] ...
#        (java -jar once-verify/target/once-verify.jar relay --help lists every flag)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl shop,psp-simulator,once-verify -am package -DskipTests
exec java -Xmx1g ${JAVA_OPTS:-} -jar once-verify/target/once-verify.jar relay --shop-jar shop/target/shop.jar "$@"
