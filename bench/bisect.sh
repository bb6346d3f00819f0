#!/usr/bin/env bash
# Finds the commit that moved a benchmark's ratio: one bench built at several commits and run
# alternately, so that drift of the machine falls on every tree alike.
#   bench/bisect.sh export DIR COMMIT...        here, where git is: one source tree per commit in
#                                                DIR (carry DIR to the GPU machine, e.g. under .deps/)
#   ROUNDS=3 bench/bisect.sh run DIR BENCH [ARGS...]   on the GPU machine: builds bench_BENCH in
#                                                every tree of DIR (in parallel, one core each) and
#                                                in this tree, then runs them in turn, ROUNDS times
# Outputs: DIR/out/<tree>_<round>.txt. Compare within one run only: two device sessions differ
# by a few percent on the same tree (bench/results/h100-reduce.txt, Xu w at the top).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
mode=${1:?usage: bench/bisect.sh export DIR COMMIT... | run DIR BENCH [ARGS...]}
dir=${2:?a directory}
shift 2
case "$mode" in
  export)
    for c in "$@"; do
      mkdir -p "$dir/$c" && git archive "$c" | tar -x -C "$dir/$c" || exit 1
      # Only what a bench needs: the library, the runtime and the benches.
      rm -rf "$dir/$c/examples" "$dir/$c/docs" "$dir/$c/tests/vv" "$dir/$c"/tests/*.cpp
    done
    du -sh "$dir"
    ;;
  run)
    bench=${1:?a bench name, e.g. reduce}
    shift
    trees=()
    for t in "$dir"/*/; do [ "$(basename "$t")" = out ] || trees+=("${t%/}"); done
    trees+=(.)
    mkdir -p "$dir/out"
    for t in "${trees[@]}"; do
      mkdir -p "$t/build"
      (cmake -S "$t" -B "$t/build/bisect" -DCMAKE_BUILD_TYPE=Release -DACC_BACKENDS=cuda -DACC_BUILD_BENCH=ON \
             -DACC_BUILD_TESTS=OFF -DACC_BUILD_EXAMPLES=OFF > "$t/build/bisect.log" 2>&1 &&
       cmake --build "$t/build/bisect" --target "bench_$bench" -j1 >> "$t/build/bisect.log" 2>&1
       echo "$t: bench_$bench built, rc=$?") &
    done
    wait
    for round in $(seq 1 "${ROUNDS:-3}"); do
      for t in "${trees[@]}"; do
        name=$(basename "$(cd "$t" && pwd)")
        [ "$t" = . ] && name=this
        timeout 300 "$t/build/bisect/bench/bench_$bench" "$@" > "$dir/out/${name}_$round.txt" 2>&1
        echo "$name round $round: rc=$?"
      done
    done
    ;;
  *) echo "bench/bisect.sh: unknown mode $mode (export or run)" >&2; exit 2 ;;
esac
