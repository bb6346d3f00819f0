#!/usr/bin/env bash
# Compares this tree's benchmark ratios with another tree's on a GPU machine, both built and run
# in the same session: each bench runs alternately from the other tree and from this one, for
# ROUNDS rounds, so that drift of the machine falls on both. The ratios each bench prints
# (against its hand-written CUDA / CUB / raw-launch baseline, timed in the same process) are
# what to compare; bench/results/h100-architecture.txt shows a summary.
#   bench/compare.sh OTHER_TREE [bench ...]      (default benches: stream reduce scan tiles launch)
#   ROUNDS=4 OUT=dir bench/compare.sh /path/to/old/checkout launch stream
# Outputs go to $OUT (default bench/compare-out): <bench>_<other|this>_<round>.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
other=${1:?usage: bench/compare.sh OTHER_TREE [bench ...]}
shift
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(stream reduce scan tiles launch)
out=${OUT:-bench/compare-out}
mkdir -p "$out"
targets=()
for b in "${benches[@]}"; do targets+=("bench_$b"); done

configure() {  # source dir, build dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DACC_BUILD_BENCH=ON -DACC_BUILD_TESTS=OFF \
        -DACC_BUILD_EXAMPLES=OFF > "$2.configure.log" 2>&1 || { tail -20 "$2.configure.log"; exit 1; }
}
mkdir -p build
configure "$other" build/compare-other
configure . build/compare-this
cmake --build build/compare-other -j16 --target "${targets[@]}" > build/compare-other.build.log 2>&1 || exit 1
cmake --build build/compare-this -j16 --target "${targets[@]}" > build/compare-this.build.log 2>&1 || exit 1

for round in $(seq 1 "${ROUNDS:-2}"); do
  for b in "${benches[@]}"; do
    for tree in other this; do
      timeout 300 "build/compare-$tree/bench/bench_$b" > "$out/${b}_${tree}_$round.txt" 2>&1
      echo "$b $tree round $round: rc=$?"
    done
  done
done
