#!/usr/bin/env bash
# Lints the shop's OpenAPI description (GitHub issue 10) with redocly (recommended rules, config
# redocly.yaml) and spectral (spectral:oas, config .spectral.yaml): builds the shop, starts it on a
# free port in a temporary folder, saves /v3/api-docs as target/openapi/openapi.json, stops it, then
# runs both linters. Fails if either reports anything at all, a warning as much as an error: the
# goal is zero. Turn a rule off only in the config file, with a one-line reason.
# Needs Node.js with npx (the tools come from npm at pinned versions); not part of ./mvnw verify.
# Usage: bench/openapi-lint.sh [--spec FILE]   (--spec: lint FILE; no build, no shop)
#        bench/openapi-lint.sh [--no-build]    (--no-build: start the shop/target/shop.jar there is)
set -euo pipefail
CALLER=$PWD
cd "$(dirname "$0")/.."
. bench/lib/shop.sh

REDOCLY=@redocly/cli@2.77.0
SPECTRAL=@stoplight/spectral-cli@6.16.3
OUT=target/openapi
shop_spec_options 9 "$@"
command -v npx >/dev/null || { echo "npx is needed (Node.js)" >&2; exit 2; }
mkdir -p "$OUT"

if [ -z "$SPEC" ]; then
  [ -n "$BUILD" ] && shop_build
  SPEC=$OUT/openapi.json
  shop_start
  shop_fetch_spec "$SPEC"
  shop_stop
fi

# A linter's JSON report, for people: with --list each problem (line:col, severity, rule, message,
# where), then the number of problems per rule.
report() { # tool json-file [--list]
  node -e '
    const [tool, file, list] = process.argv.slice(1);
    const report = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const redocly = tool === "redocly";
    const problems = redocly ? report.problems : report;
    const severity = p => redocly ? p.severity : ["error", "warn", "info", "hint"][p.severity];
    const rule = p => redocly ? p.ruleId : p.code;
    if (list) {
      for (const p of problems) {
        const at = p.location[0];
        console.log(`  ${at.start.line}:${at.start.col}`.padEnd(10)
            + `${severity(p).padEnd(6)} ${rule(p).padEnd(28)} ${p.message}  ${at.pointer}`);
      }
    }
    const counts = new Map();
    for (const p of problems) {
      const k = severity(p).padEnd(6) + rule(p);
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    console.log(`${tool}: ${problems.length} problem(s)`);
    for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
      console.log(`  ${String(n).padStart(4)}  ${k}`);
    }
  ' "$@"
}

failed=0

echo "== redocly lint ($REDOCLY, redocly.yaml)"
# redocly exits non-zero on errors only and has no flag for warnings: its JSON report's totals decide.
rm -f "$OUT/redocly.json" "$OUT/spectral.json"
npx --yes "$REDOCLY" lint --config redocly.yaml --max-problems 10000 --format json "$SPEC" \
  > "$OUT/redocly.json" 2> "$OUT/redocly.log" || true
# Its log says which file it validated, and how the config file itself lints; not the banners.
grep -v -e '[║╔╚]' -e '^ *$' "$OUT/redocly.log" >&2 || true
report redocly "$OUT/redocly.json" --list
if ! node -e 'const t = require(process.argv[1]).totals; process.exit(t.errors + t.warnings ? 1 : 0)' \
    "$(pwd)/$OUT/redocly.json"; then
  failed=1
fi

echo "== spectral lint ($SPECTRAL, .spectral.yaml)"
# --fail-severity=hint: any result at all, down to a hint, makes spectral exit non-zero.
if ! npx --yes "$SPECTRAL" lint --ruleset .spectral.yaml --fail-severity=hint \
    --format stylish --format json --output.json "$OUT/spectral.json" "$SPEC"; then
  failed=1
fi
report spectral "$OUT/spectral.json"

if [ "$failed" -ne 0 ]; then
  echo "FAILED: the linters reported problems (reports: $OUT/redocly.json, $OUT/spectral.json)"
  exit 1
fi
echo "OK: no problem from redocly or spectral"
