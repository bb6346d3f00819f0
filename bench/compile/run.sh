#!/usr/bin/env bash
# Compile-time benchmark: what acc costs a user's build against hand-written CUDA.
# Generates two translation units with the same 20 streaming loops (y[i] = a * x[i] + y[i] + k):
# raw.cu as __global__ kernels with their launches, acc.cu as acc::parallel_loop over
# acc::array captures after #include <acc/parallel.hpp>. Times `nvcc -O3 -arch=sm_90 -c` on
# each, alternating, median of RUNS (default 3), prints the ratio, then nvcc --time's phases.
# acc.cu is compiled as the acc::acc target compiles it (ACC_SEPARATE_RUNTIME and
# ACC_RUNTIME_CUDA: the runtime, its CUDA side included, is the acc_runtime library, compiled
# once per build, whose own time is printed separately);
# the header-only build (no ACC_SEPARATE_RUNTIME) is timed once for reference.
#   bench/compile/run.sh [runs]     (from any directory; NVCC=... to pick the compiler)
# CLOCK=cpu times the user + system CPU time of nvcc and its children (GNU time) instead of wall
# time: steadier on a machine that other builds share.
# CLOCK=instructions counts the instructions nvcc and its children execute (valgrind's cachegrind
# without cache simulation; about 2 minutes a compile), in billions, with each tool's share:
# the same on every run, so it shows a change of a few percent that the shared machine's timing
# spread (up to 30%) hides. Instructions are not time (the front ends' parsing is memory-bound),
# so the ratio it prints is a proxy; state the timed ratio as well.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
loops=20

{
  echo '#include <cuda_runtime.h>'
  for k in $(seq 1 $loops); do
    echo "__global__ void loop$k(float* y, const float* x, float a, int n) {"
    echo "  const int i = blockIdx.x * blockDim.x + threadIdx.x;"
    echo "  if (i < n) y[i] = a * x[i] + y[i] + $k.0f;"
    echo "}"
  done
  echo 'void run(float* y, const float* x, float a, int n) {'
  for k in $(seq 1 $loops); do echo "  loop$k<<<(n + 255) / 256, 256>>>(y, x, a, n);"; done
  echo '  cudaDeviceSynchronize();'
  echo '}'
} > "$work/raw.cu"

{
  echo '#include <acc/parallel.hpp>'
  echo 'void run(acc::array<float> y, acc::view<const float> x, float a, int n) {'
  for k in $(seq 1 $loops); do echo "  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = a * x[i] + y[i] + $k.0f; });"; done
  echo '}'
} > "$work/acc.cu"

flags=(-std=c++20 --extended-lambda --expt-relaxed-constexpr -O3 -arch=sm_90 -I"$root/include" -c)
extra_acc=(-DACC_SEPARATE_RUNTIME -DACC_RUNTIME_CUDA)
clock=${CLOCK:-wall}
[ "$clock" = instructions ] && runs=1  # the same count every run
[ "$clock" = cpu ] && [ ! -x /usr/bin/time ] && { echo "CLOCK=cpu needs GNU time (/usr/bin/time)" >&2; exit 1; }
[ "$clock" = instructions ] && ! command -v valgrind >/dev/null && { echo "CLOCK=instructions needs valgrind" >&2; exit 1; }
# Instructions of one compile, in billions; each tool's share in $work/$1.tools.
instructions() {
  rm -f "$work"/cg.*
  valgrind --tool=cachegrind --cache-sim=no --trace-children=yes --cachegrind-out-file="$work/cg.%p" \
    "$nvcc" "${flags[@]}" "$@" -o "$work/x.o" >/dev/null 2>&1 || return 1
  # cc1plus runs twice as nvcc's preprocessor (-E) and once as the host compiler: told apart,
  # since only the host compile grows with the number of constructs.
  for f in "$work"/cg.*; do
    tool=$(basename "$(awk '/^cmd:/ {print $2; exit}' "$f")")
    [ "$tool" = cc1plus ] && awk '/^cmd:/ {exit !/ -E /}' "$f" && tool=cc1plus-E
    echo "$tool $(awk '/^summary:/ {print $2}' "$f")"
  done | awk '{n[$1] += $2; t += $2} END {for (k in n) if (n[k] > 1e8) printf "%s=%.2f ", k, n[k] / 1e9; printf "\n%.3f\n", t / 1e9}'
}
seconds() {
  local t0 t1 extra=()
  [ "$1" = acc ] && extra=("${extra_acc[@]}")
  if [ "$clock" = instructions ]; then
    instructions "${extra[@]}" "$work/$1.cu" > "$work/$1.tools" || { echo "nvcc failed on $1.cu" >&2; return 1; }
    tail -1 "$work/$1.tools"
    return
  fi
  if [ "$clock" = cpu ]; then
    /usr/bin/time -f '%U %S' -o "$work/time" "$nvcc" "${flags[@]}" "${extra[@]}" "$work/$1.cu" -o "$work/$1.o" >&2 ||
      { echo "nvcc failed on $1.cu" >&2; return 1; }
    awk '{printf "%.6f", $1 + $2}' "$work/time"
    return
  fi
  t0=$(date +%s.%N)
  "$nvcc" "${flags[@]}" "${extra[@]}" "$work/$1.cu" -o "$work/$1.o" >&2 || { echo "nvcc failed on $1.cu" >&2; return 1; }
  t1=$(date +%s.%N)
  calc "$t1 - $t0"
}
calc() { awk "BEGIN {printf \"%.6f\", $1}"; }  # arithmetic without bc (not on every machine)
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

raw=() acc=()
for _ in $(seq 1 "$runs"); do
  t=$(seconds raw) || exit 1
  raw+=("$t")
  t=$(seconds acc) || exit 1
  acc+=("$t")
done
r=$(median "${raw[@]}") a=$(median "${acc[@]}")
if [ "$clock" = instructions ]; then
  echo "nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $loops loops, instructions (billions)"
  printf 'raw CUDA  %7.3f   (%s)\n' "$r" "$(head -1 "$work/raw.tools")"
  printf 'acc       %7.3f   (%s)\n' "$a" "$(head -1 "$work/acc.tools")"
  printf 'ratio     %7.3f x\n' "$(calc "$a / $r")"
  exit 0
fi
echo "nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $(nproc) cores, $loops loops, median of $runs, $clock time"
printf 'raw CUDA  %6.2f s   (%s)\n' "$r" "${raw[*]}"
printf 'acc       %6.2f s   (%s)\n' "$a" "${acc[*]}"
printf 'ratio     %6.2f x\n' "$(calc "$a / $r")"
extra_acc=()
h=$(seconds acc) || exit 1
printf 'acc, header-only (runtime inline in the TU)  %6.2f s  (%.2f x)\n' "$h" "$(calc "$h / $r")"
for src in runtime runtime_cuda; do
  [ -f "$root/src/$src.cpp" ] || continue
  t0=$(date +%s.%N)
  "${CXX:-g++}" -std=c++20 -O3 -I"$root/include" -I"$(dirname "$(command -v "$nvcc")")/../include" \
    -c "$root/src/$src.cpp" -o "$work/$src.o"
  t1=$(date +%s.%N)
  printf 'the runtime library (src/%s.cpp, once per build)  %6.2f s\n' "$src" "$(calc "$t1 - $t0")"
done
for tu in raw acc; do
  echo "nvcc --time phases, $tu.cu (ms):"
  extra=()
  [ "$tu" = acc ] && extra=(-DACC_SEPARATE_RUNTIME -DACC_RUNTIME_CUDA)
  "$nvcc" "${flags[@]}" "${extra[@]}" "$work/$tu.cu" -o "$work/$tu.o" --time "$work/$tu.csv" >/dev/null
  awk -F' , ' 'NR > 1 && $2 !~ /driver/ {t[$2] += $(NF - 1)} END {for (p in t) printf "  %-22s %8.0f\n", p, t[p]}' \
    "$work/$tu.csv" | sort -t'|' -k1,1 | sort -k2 -t$'\t' | awk '{print}'
done
