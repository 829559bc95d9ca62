#!/usr/bin/env bash
# Side-by-side benchmarks (issue 11): Bindery against a hand-written baseline over the same
# database, real HTTP on loopback, 32 concurrent clients, alternating rounds, both databases.
# Figures go to docs/performance.md with the machine they were taken on.
#
#   bash bench/sidebyside.sh                 # both benchmarks, 3 rounds of 2 s each
#   BINDERY_SBS_ROUNDS=5 BINDERY_SBS_DURATION_MS=3000 bash bench/sidebyside.sh Org
set -euo pipefail
cd "$(dirname "$0")/.."
# Run at the collector target the server binary chooses for itself (cmd/bindery/gc.go), so the
# figures are the ones an operator meets; baseline and Bindery share the process, so both get it.
export GOGC="${GOGC:-400}"
exec go test ./rest/ -run '^$' -bench "SideBySide${1:-}" -benchtime 1x -count 1
