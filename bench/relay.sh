#!/usr/bin/env bash
# The relay's benchmark (docs/benchmarks.md): HTTP new payments with the relay running, then the
# relay alone draining pre-filled provider.charge rows, in one run on one embedded PostgreSQL.
# Usage: bench/relay.sh [rows, default 50000] [seconds, default 20] [clients, default 16]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl shop -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
CP=shop/target/test-classes:shop/target/classes:$(cat shop/target/bench-classpath.txt)
exec java -Xmx1g ${JAVA_OPTS:-} -cp "$CP" dev.once.shop.bench.RelayBenchmark "$@"
