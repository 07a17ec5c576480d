#!/usr/bin/env bash
# The relay's benchmark (docs/benchmarks.md, issues 6, 21, 22, 23 and 38): in one run on one
# embedded PostgreSQL, HTTP new payments with the relay on and off, the relay alone draining
# pre-filled provider.charge rows (with commits and row writes per row), one hot aggregate, orders
# at 50 connections, a transaction held open, a shop killed with SIGKILL, and the purges (one run
# on a backlog of expired keys and inbox records, timed; table sizes under sustained load with 5 s
# retentions); on request (--phases), a
# drain of pre-placed orders in process and through Kafka (with counts per event) and commit ->
# effect at a low load on both transports (bench/kafka.sh runs those); then a table of each
# measure against its goal, also written to target/bench/relay-<time>.md (or --out <dir>). The shop
# runs as its own process from its jar, and Kafka, for the phases that need it, as another;
# PostgreSQL and the load generator run in once-verify's JVM.
# Usage: bench/relay.sh [--phases http,relay,archive,hot,drain,orders,paced,horizon,kill,purge] ...
#        (java -jar once-verify/target/once-verify.jar relay --help lists every flag)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl shop,psp-simulator,once-verify -am package -DskipTests
exec java -Xmx1g ${JAVA_OPTS:-} -jar once-verify/target/once-verify.jar relay --shop-jar shop/target/shop.jar "$@"
