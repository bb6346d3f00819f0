#!/usr/bin/env bash
# Builds and runs the benchmarks on a GPU machine, from any directory. Arguments go to
# bench_stream (e.g. --log2 25). With $OUT set, each bench's output is also kept in
# $OUT/bench_<name>.txt. Exits non-zero if any bench fails, after running all.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

cmake -S . -B build-bench -DACC_BUILD_BENCH=ON -DACC_BUILD_TESTS=OFF -DACC_BUILD_EXAMPLES=OFF \
      -DCMAKE_BUILD_TYPE=Release || exit 1
cmake --build build-bench -j16 --target bench_stream bench_launch bench_transfer bench_reduce bench_scan bench_tiles bench_team_accumulate bench_adaptive bench_tuned bench_graph || exit 1

status=0
run() {
  local name=$1
  shift
  if [[ -n "${OUT:-}" ]]; then
    "$@" 2>&1 | tee "$OUT/bench_$name.txt"
  else
    "$@"
  fi || status=1
}
run stream build-bench/bench/bench_stream "$@"
run launch build-bench/bench/bench_launch
run transfer build-bench/bench/bench_transfer
run reduce build-bench/bench/bench_reduce
run scan build-bench/bench/bench_scan
run tiles build-bench/bench/bench_tiles
run team_accumulate build-bench/bench/bench_team_accumulate
run adaptive build-bench/bench/bench_adaptive
run tuned build-bench/bench/bench_tuned
run graph build-bench/bench/bench_graph
exit $status
