#!/usr/bin/env bash
# The generated-client check of GitHub issue 10: builds the shop, starts it on a free port in a
# temporary folder, saves its /v3/api-docs as target/openapi/openapi.json, generates a Java client
# from it with openapi-generator (bench/openapi-client, library "native": java.net.http and
# Jackson), compiles it, and runs the curl sessions of shop/README.md's tour through it against that shop
# (dev.once.client.Session): a payment replayed with Idempotent-Replayed: true, a reused key as a
# typed Problem (422), settlements, an order reserved, paid and cancelled. Stops the shop in any case.
# Needs a JDK 17+ and curl (Maven through ./mvnw, everything else from Maven Central).
# Usage: bench/openapi-client.sh [--no-build] [--spec FILE]
#        --no-build: start the shop/target/shop.jar there is
#        --spec FILE: generate the client from FILE instead of the shop's description
set -euo pipefail
CALLER=$PWD
cd "$(dirname "$0")/.."
. bench/lib/shop.sh

OUT=target/openapi
PROJECT=bench/openapi-client
shop_spec_options 11 "$@"

[ -n "$BUILD" ] && shop_build
shop_start
shop_fetch_spec "$OUT/openapi.json"
SPEC=${SPEC:-$(pwd)/$OUT/openapi.json}

echo "== generate and compile the client ($PROJECT, from $SPEC)"
# clean: a schema or an operation gone from the description must not survive in target/.
if ! ./mvnw -q -f "$PROJECT/pom.xml" -DinputSpec="$SPEC" clean package > "$OUT/client-build.log" 2>&1; then
  grep -v -e '^#' -e '^    at ' -e '^\[ERROR\] *$' -e 'Re-run Maven' -e 'Help 1' -e 'full stack trace' -e 'For more information' \
    "$OUT/client-build.log" | head -60 >&2
  echo "FAILED: the generated client does not build (whole log: $OUT/client-build.log)" >&2
  exit 1
fi
grep -e WARNING "$OUT/client-build.log" >&2 || true

echo "== the tour's sessions (shop/README.md) through the generated client, against $SHOP_URL"
java -cp "$PROJECT/target/classes:$(cat "$PROJECT/target/classpath.txt")" dev.once.client.Session \
  "$SHOP_URL" "$SHOP_DIR/data/admin-token"
