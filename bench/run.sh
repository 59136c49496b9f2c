#!/usr/bin/env bash
# Runs obb2d's benchmarks with -count=10 (COUNT to change) and writes the raw
# results and benchstat tables, implementations side by side, to bench/out/
# (OUT to change). BENCH selects benchmarks by regexp, as go test -bench.
#
#   bash bench/run.sh                          # everything (about an hour)
#   BENCH='Overlaps$' COUNT=5 bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/out}
count=${COUNT:-10}
benchstat="go run golang.org/x/perf/cmd/benchstat@v0.0.0-20250305200902-02a15fd477ba"
mkdir -p "$out"
go test ./bench -run '^$' -bench "${BENCH:-.}" -count "$count" -timeout 6h | tee "$out/raw.txt"
# Kernels side by side per size (one table per benchmark and unit).
$benchstat -col /impl "$out/raw.txt" > "$out/by-impl.txt"
echo "wrote $out/raw.txt and $out/by-impl.txt"
