#!/usr/bin/env bash
# Reproduces the tables and charts of docs/PERFORMANCE.md. It runs obb2d's
# benchmarks (bench/) and the peer comparison (bench/peers, its own module)
# with -count=10 (COUNT to change), then writes to bench/out/ (OUT to
# change):
#
#   raw.txt, by-impl.txt          bench/ results and benchstat -col /impl
#   peers-raw.txt, peers-by-impl.txt   the same for bench/peers
#   answers-seeds.txt, answers-peers.txt   wrong answers against the exact oracle
#   *.svg                         ns/box against n per implementation
#
#   bash bench/run.sh                              # everything
#   BENCH='Overlaps$' PEERS=0 COUNT=5 bash bench/run.sh   # a subset
#
# BENCH and PEERS_BENCH select benchmarks by regexp, as go test -bench;
# PEERS=0 skips bench/peers.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$(mkdir -p "${OUT:-bench/out}" && cd "${OUT:-bench/out}" && pwd)
count=${COUNT:-10}
benchstat() { go run golang.org/x/perf/cmd/benchstat@v0.0.0-20250305200902-02a15fd477ba "$@"; }
chart() { (cd "$root/bench/peers" && go run ./cmd/chart "$@"); }

go test ./bench -run '^$' -bench "${BENCH:-.}" -count "$count" -timeout 6h | tee "$out/raw.txt"
benchstat -col /impl "$out/raw.txt" > "$out/by-impl.txt"
go test ./bench -run TestSeedPortAnswers -v | tee "$out/answers-seeds.txt"

if [ "${PEERS:-1}" != 0 ]; then
	(cd bench/peers && go test -run '^$' -bench "${PEERS_BENCH:-.}" -count "$count" -timeout 6h) | tee "$out/peers-raw.txt"
	benchstat -col /impl "$out/peers-raw.txt" > "$out/peers-by-impl.txt"
	(cd bench/peers && go test -run TestPeerAnswers -v) | tee "$out/answers-peers.txt"
fi

# Charts of whatever the runs above measured; a benchmark that was not run
# is skipped.
draw() {
	local in=$1 svg=$2; shift 2
	chart -in "$in" -out "$out/$svg" "$@" || echo "skipped $svg"
}
draw "$out/raw.txt" kernels.svg -bench Overlaps -title 'One box against n (map scene)'
draw "$out/raw.txt" kernels-dense.svg -bench OverlapsDense -title 'One box against n (dense scene)'
draw "$out/raw.txt" seed-ports.svg -bench SeedPorts -title 'Seed articles against obb2d (map scene)'
draw "$out/raw.txt" allpairs-uniform.svg -bench AllPairs -filter 'scene=uniform/.*workers=1/' -title 'All pairs, uniform scene, one worker'
draw "$out/raw.txt" world-step.svg -bench WorldStep -series move -filter 'world=uniform/moved=100%/.*workers=1/' -title 'World step, every box moved, uniform scene, one worker'
draw "$out/raw.txt" allpairs-scaling.svg -bench AllPairsScaling -series workers -title 'Finder.All, uniform scene, constant density, lines by workers'
if [ -f "$out/peers-raw.txt" ]; then
	draw "$out/peers-raw.txt" peers-allpairs-uniform.svg -bench PeerAllPairs -filter scene=uniform -title 'All pairs against peers, uniform scene'
	draw "$out/peers-raw.txt" peers-allpairs-rts.svg -bench PeerAllPairs -filter scene=rts -title 'All pairs against peers, RTS scene'
fi
echo "wrote $out"
