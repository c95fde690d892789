#!/usr/bin/env bash
# Runs every client scenario of the conformance suite against hx and prints one line each.
# Usage: test/conformance/run-all.sh [scenario…]   (results under $OUT, default a temp folder)
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-$(mktemp -d)}; mkdir -p "$OUT"
SUITE="node --import ./test/conformance/node20-fs-shim.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js"
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
  mapfile -t scenarios < <($SUITE list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
for s in "${scenarios[@]}"; do
  $SUITE client --command "node_modules/.bin/tsx test/conformance/hx-client.ts" --scenario "$s" -o "$OUT" --timeout 30000 >"$OUT/$(echo "$s" | tr / _).log" 2>&1
  echo "$s exit=$? $(grep -E 'Passed|Failed|passed|failed' "$OUT/$(echo "$s" | tr / _).log" | tail -1)"
done
echo "results: $OUT"
