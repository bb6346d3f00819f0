#!/usr/bin/env bash
# Compares acc's NPB ports (examples/npb_*) with the reference implementations on a GPU machine:
#   cuda:   acc's cuda build against GMAP/NPB-GPU (hand-written CUDA), built twice: as shipped
#           (-use_fast_math) and without fast math (acc's kernels do not use fast math);
#   openmp: acc's openmp build against GMAP/NPB-CPP's NPB-OMP (g++ -O3 -fopenmp, as shipped),
#           both with OMP_NUM_THREADS=$THREADS.
# The references come from .deps/refs (bench/refs.sh exports them there); nothing is downloaded.
# Each program and class runs ROUNDS times, acc and the references alternating (the order flips
# every round, so drift of the machine falls on both); a cell is the median of the seconds that
# each program reports for its own timed section (acc: "time = X s", NPB: "Time in seconds = X").
# A program that fails to build, run or verify shows up in the table; it does not stop the rest.
#
#   bench/npb.sh                 build everything, run, write bench/results/h100-npb.txt
#   bench/npb.sh build           only build (acc with CMake, references in scratch copies)
#   bench/npb.sh build-acc | build-refs   only one of the two
#   bench/npb.sh run             only run and tabulate (after a build)
#   bench/npb.sh table           tabulate again from the last run's records
#   bench/npb.sh parse LOG...    print "seconds verified" for saved program outputs
# The GPU machine has no network: run bench/refs.sh where the mirrors are and take .deps/refs
# along; there, `bench/npb.sh build` then `bench/npb.sh run` as two commands keeps each short.
#
# Settings (environment):
#   PROGRAMS="ep cg is mg ft sp lu bt"  those without an acc port (examples/npb_<p>) are skipped
#   CLASSES="B C"        classes of the cuda comparison
#   HOST_CLASSES="B"     classes of the openmp comparison; NPB-OMP's class C takes minutes on 16
#                        cores, so it is left out by default: HOST_CLASSES="B C" adds it
#   ROUNDS=3             runs of each program and class
#   CUDA=1 HOST=1        0 skips that comparison
#   NOFAST=1             0 skips NPB-GPU without fast math
#   THREADS=16           OMP_NUM_THREADS of the openmp runs (OMP_PROC_BIND etc. pass through)
#   ARCH=90              compute capability the references are built for (acc: CMake's default)
#   CUDA_HOME=/usr/local/cuda   NPB_GPU=.deps/refs/NPB-GPU   NPB_CPP=.deps/refs/NPB-CPP
#   WORK=build/npb-bench scratch: acc's build, reference copies, logs, runs.tsv
#   ALL_REFS=0           1 builds the references of unported programs too
#   RESULTS=bench/results/h100-npb.txt   TIMEOUT=120 (seconds per run)   JOBS=$(nproc)
#   OUT=dir              also copy the results, records and logs there (device runs)
#
# The references are built in scratch copies under $WORK/refs, changed by sed there only:
# - config/make.def: -gencode for sm_$ARCH instead of the shipped sm_61, which CUDA 13 no longer
#   compiles for (its oldest target is sm_75); for the second build, no -use_fast_math;
# - common/c_print_results.cpp: print "Time in seconds" with 6 decimals instead of 2 (the value
#   is the same; 2 decimals cannot resolve class B runs of a few hundredths of a second).
# They are built directly in each program's folder (make -C CUDA/CG CLASS=B), which skips the
# top-level Makefile's config/get_gpu_arch.sh (it rewrites make.def from nvidia-smi).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

read -ra programs <<< "${PROGRAMS:-ep cg is mg ft sp lu bt}"
read -ra classes <<< "${CLASSES:-B C}"
read -ra host_classes <<< "${HOST_CLASSES:-B}"
rounds=${ROUNDS:-3}
do_cuda=${CUDA:-1}
do_host=${HOST:-1}
do_nofast=${NOFAST:-1}
threads=${THREADS:-16}
arch=${ARCH:-90}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
npb_gpu=${NPB_GPU:-.deps/refs/NPB-GPU}
npb_cpp=${NPB_CPP:-.deps/refs/NPB-CPP}
work=${WORK:-build/npb-bench}
results=${RESULTS:-bench/results/h100-npb.txt}
timeout_s=${TIMEOUT:-120}
jobs=${JOBS:-$(nproc)}
export PATH="$cuda_home/bin:$PATH"  # NPB-GPU's make.def and setparams call plain nvcc

logs=$work/logs
records=$work/runs.tsv
mkdir -p "$logs"

# Programs that have an acc port, in the order asked for.
ported=() unported=()
for p in "${programs[@]}"; do
  if [ -d "examples/npb_$p" ]; then ported+=("$p"); else unported+=("$p"); fi
done
# The references are built for the ported programs only, unless ALL_REFS=1 (to check their build).
if [ "${ALL_REFS:-0}" = 1 ]; then ref_programs=("${programs[@]}"); else ref_programs=("${ported[@]}"); fi

cuda_impls=(acc-cuda npbgpu)
[ "$do_nofast" = 1 ] && cuda_impls+=(npbgpu-nofast)

upper() { tr '[:lower:]' '[:upper:]' <<< "$1"; }
note() { echo "[$(date +%H:%M:%S)] $*"; }

# Binaries, by implementation name.
binary() {  # impl program class
  case $1 in
    acc-cuda) echo "$work/acc/examples/npb_$2_cuda" ;;
    acc-omp) echo "$work/acc/examples/npb_$2_openmp" ;;
    npbgpu) echo "$work/refs/npbgpu-$3/bin/$2.$3" ;;
    npbgpu-nofast) echo "$work/refs/npbgpu-nofast-$3/bin/$2.$3" ;;
    npbomp) echo "$work/refs/npbomp-$3/bin/$2.$3" ;;
  esac
}

# --- build ---------------------------------------------------------------------------------

build_acc() {
  local targets=() backends=() p
  [ "$do_cuda" = 1 ] && backends+=(cuda)
  [ "$do_host" = 1 ] && backends+=(openmp)
  for p in "${ported[@]}"; do
    for b in "${backends[@]}"; do targets+=("npb_${p}_$b"); done
  done
  [ ${#targets[@]} -gt 0 ] || return 0
  local cuda_args=()
  [ -x "$cuda_home/bin/nvcc" ] && cuda_args=(-DCMAKE_CUDA_COMPILER="$cuda_home/bin/nvcc")
  note "acc: configuring $work/acc (backends ${backends[*]})"
  cmake -S . -B "$work/acc" -DCMAKE_BUILD_TYPE=Release -DACC_BUILD_TESTS=OFF -DACC_BUILD_EXAMPLES=ON \
        -DACC_BUILD_BENCH=OFF "-DACC_BACKENDS=$(IFS=';'; echo "${backends[*]}")" "${cuda_args[@]}" \
        > "$logs/acc-configure.log" 2>&1 || { note "acc: configure failed, see $logs/acc-configure.log"; return 1; }
  note "acc: building ${targets[*]}"
  if ! cmake --build "$work/acc" -j "$jobs" --target "${targets[@]}" > "$logs/acc-build.log" 2>&1; then
    # One broken port must not hide the others: build the rest one by one.
    local t
    for t in "${targets[@]}"; do
      cmake --build "$work/acc" -j "$jobs" --target "$t" > "$logs/acc-build-$t.log" 2>&1 ||
        note "acc: $t failed to build, see $logs/acc-build-$t.log"
    done
  fi
}

# Prepares a scratch copy of a reference suite and builds the programs for one class in it.
# One copy per variant and class: the programs of a copy share common/*.o and sys/setparams,
# so they are built one after another, while the copies build in parallel.
build_reference() {  # variant class
  local variant=$1 cls=$2 dir=$work/refs/$1-$2 src
  case $variant in
    npbgpu | npbgpu-nofast) src=$npb_gpu/CUDA ;;
    npbomp) src=$npb_cpp/NPB-OMP ;;
  esac
  [ -d "$src" ] || { echo "$variant $cls: no $src (run bench/refs.sh)" > "$logs/build-$variant-$cls.log"; return 1; }
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  cp -r "$src" "$dir"
  sed -i 's/\(Time in seconds = *%12\)\.2f/\1.6f/' "$dir/common/c_print_results.cpp"
  grep -q 'Time in seconds = *%12\.6f' "$dir/common/c_print_results.cpp" ||
    echo "npb.sh: c_print_results.cpp not patched; times keep 2 decimals" >> "$logs/build-$variant-$cls.log"
  if [ "$variant" != npbomp ]; then
    sed -i "s/^COMPUTE_CAPABILITY *=.*/COMPUTE_CAPABILITY = -gencode arch=compute_$arch,code=sm_$arch/" "$dir/config/make.def"
    [ "$variant" = npbgpu-nofast ] && sed -i '/^OPTIMIZATIONS *=/s/ *-use_fast_math//' "$dir/config/make.def"
  fi
  local p
  for p in "${ref_programs[@]}"; do
    [ -d "$dir/$(upper "$p")" ] || { echo "no $(upper "$p") in $src" > "$logs/build-$variant-$p.$cls.log"; continue; }
    make -C "$dir/$(upper "$p")" CLASS="$cls" > "$logs/build-$variant-$p.$cls.log" 2>&1 ||
      note "$variant: $p.$cls failed to build, see $logs/build-$variant-$p.$cls.log"
  done
}

build_all() {  # [acc] [refs]
  local start=$SECONDS variants=() v c what=" $* "
  [ ${#unported[@]} -eq 0 ] || note "no acc port of ${unported[*]}: not run"
  [[ $what == *" acc "* ]] && build_acc &
  [[ $what == *" refs "* ]] || { wait; return; }
  [ "$do_cuda" = 1 ] && for c in "${classes[@]}"; do
    variants+=("npbgpu $c")
    [ "$do_nofast" = 1 ] && variants+=("npbgpu-nofast $c")
  done
  [ "$do_host" = 1 ] && for c in "${host_classes[@]}"; do variants+=("npbomp $c"); done
  for v in "${variants[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    note "building $v"
    build_reference $v &
  done
  wait
  note "builds done in $((SECONDS - start)) s"
  echo "builds: $((SECONDS - start)) s" > "$work/build-duration"
}

# --- run -----------------------------------------------------------------------------------

# Prints "seconds verified" from a program's output: acc's ports print "  time = X s, ..." and
# "verification SUCCESSFUL" (IS: "Verification = SUCCESSFUL"); NPB prints " Time in seconds = X"
# and " Verification    =               SUCCESSFUL". seconds is "-" when none is printed.
parse() {  # log file
  awk '
    /^ *time = [0-9.eE+-]+ s/ { t = $3 }
    /^ *Time in seconds *=/    { t = $NF }
    tolower($0) ~ /^ *verification *=? *successful/ { ok = 1 }
    END { printf "%s %s\n", (t == "" ? "-" : t), (ok ? "yes" : "no") }' "$1"
}

# Runs one program once and appends "side impl program class round status seconds" to runs.tsv.
# status: ok, unverified, timeout, no-class (the acc port has no such class), no-binary, rc=N.
run_one() {  # side impl program class round
  local side=$1 impl=$2 p=$3 cls=$4 round=$5 exe status seconds verified args
  exe=$(binary "$impl" "$p" "$cls")
  local log=$logs/run-$impl-$p.$cls.$round.log
  if [ ! -x "$exe" ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$side" "$impl" "$p" "$cls" "$round" no-binary - >> "$records"
    return
  fi
  local env=(OMP_NUM_THREADS="$threads")
  [ "$impl" = acc-cuda ] && env+=(ACC_DEVICE_TYPE="${ACC_DEVICE_TYPE:-nvidia}")
  case $impl in acc-*) args=("$cls") ;; *) args=() ;; esac
  # NPB's programs read ../config/gpu.config and print from their own folder; run them from bin/.
  (cd "$(dirname "$exe")" && timeout "$timeout_s" env "${env[@]}" "./$(basename "$exe")" "${args[@]}") > "$log" 2>&1
  local rc=$?
  read -r seconds verified < <(parse "$log")
  if [ $rc = 124 ]; then status=timeout
  elif [ $rc = 2 ] && grep -q '^usage:' "$log"; then status=no-class
  elif [ $rc != 0 ]; then status=rc=$rc
  elif [ "$verified" = yes ] && [ "$seconds" != - ]; then status=ok
  else status=unverified
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$side" "$impl" "$p" "$cls" "$round" "$status" "$seconds" >> "$records"
  echo "  $impl $p.$cls round $round: $status ${seconds}s"
}

run_side() {  # side impl... (the first is acc; order alternates by round)
  local side=$1
  shift
  local impls=("$@") p cls round i list
  local which=host_classes
  [ "$side" = cuda ] && which=classes
  local -n side_classes=$which
  for cls in "${side_classes[@]}"; do
    for p in "${ported[@]}"; do
      for round in $(seq 1 "$rounds"); do
        list=("${impls[@]}")
        if ((round % 2 == 0)); then
          list=()
          for ((i = ${#impls[@]} - 1; i >= 0; i--)); do list+=("${impls[i]}"); done
        fi
        for i in "${list[@]}"; do run_one "$side" "$i" "$p" "$cls" "$round"; done
      done
    done
  done
}

run_all() {
  : > "$records"
  : > "$work/durations"
  local start=$SECONDS
  if [ "$do_cuda" = 1 ]; then
    note "cuda: acc against NPB-GPU (as shipped, and without fast math), $rounds rounds"
    run_side cuda "${cuda_impls[@]}"
    echo "cuda runs: $((SECONDS - start)) s" >> "$work/durations"
  fi
  start=$SECONDS
  if [ "$do_host" = 1 ]; then
    note "openmp: acc against NPB-OMP, OMP_NUM_THREADS=$threads, $rounds rounds"
    run_side host acc-omp npbomp
    echo "openmp runs: $((SECONDS - start)) s" >> "$work/durations"
  fi
  note "$(paste -sd, "$work/durations" | sed "s/,/, /g")"
}

# --- table ---------------------------------------------------------------------------------

# Median seconds of an implementation's runs, or what went wrong: "no build", "no class",
# "timeout", "FAILED" (non-zero exit), "unverified"; "-" when it was not run.
cell() {  # side impl program class
  awk -F'\t' -v s="$1" -v i="$2" -v p="$3" -v c="$4" '
    $1 == s && $2 == i && $3 == p && $4 == c {
      n++
      if ($6 == "ok") t[++k] = $7 + 0
      else if (bad == "") bad = $6
    }
    END {
      if (n == 0) { print "-"; exit }
      if (bad != "") {
        if (bad == "no-binary") print "no build"
        else if (bad == "no-class") print "no class"
        else if (bad == "timeout") print "timeout"
        else if (bad == "unverified") print "unverified"
        else print "FAILED"
        exit
      }
      for (a = 2; a <= k; a++) { v = t[a]; for (b = a - 1; b >= 1 && t[b] > v; b--) t[b + 1] = t[b]; t[b + 1] = v }
      m = (k % 2) ? t[(k + 1) / 2] : (t[k / 2] + t[k / 2 + 1]) / 2
      printf (m < 0.1 ? "%.5f\n" : "%.4f\n"), m
    }' "$records"
}

is_number() { [[ $1 =~ ^[0-9.]+$ ]]; }

# One table: rows of program and class, a seconds column per implementation and a ratio column
# acc/reference per reference; a last row with the geometric mean of each ratio column over the
# rows where both ran and verified.
table() {  # side title impl...
  local side=$1 title=$2
  shift 2
  local impls=("$@") acc=$1 refs=("${@:2}") p cls i r
  local which=host_classes
  [ "$side" = cuda ] && which=classes
  local -n side_classes=$which
  declare -A logsum count
  echo "$title"
  printf '%-8s %-5s' program class
  for i in "${impls[@]}"; do printf ' %16s' "$i s"; done
  for r in "${refs[@]}"; do printf ' %18s' "acc/$r"; done
  printf '  %s\n' verified
  for cls in "${side_classes[@]}"; do
    for p in "${ported[@]}"; do
      declare -A v=()
      for i in "${impls[@]}"; do v[$i]=$(cell "$side" "$i" "$p" "$cls"); done
      printf '%-8s %-5s' "$p" "$cls"
      for i in "${impls[@]}"; do printf ' %16s' "${v[$i]}"; done
      local all=yes
      for i in "${impls[@]}"; do is_number "${v[$i]}" || all=no; done
      for r in "${refs[@]}"; do
        if is_number "${v[$acc]}" && is_number "${v[$r]}"; then
          local ratio
          ratio=$(awk -v a="${v[$acc]}" -v b="${v[$r]}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
          printf ' %18s' "$ratio"
          if is_number "$ratio"; then
            logsum[$r]=$(awk -v s="${logsum[$r]:-0}" -v x="$ratio" 'BEGIN { printf "%.12f", s + log(x) }')
            count[$r]=$((${count[$r]:-0} + 1))
          fi
        else
          printf ' %18s' -
        fi
      done
      printf '  %s\n' "$all"
      unset v
    done
  done
  printf '%-14s' "geomean"
  for i in "${impls[@]}"; do printf ' %16s' ""; done
  for r in "${refs[@]}"; do
    if [ "${count[$r]:-0}" -gt 0 ]; then
      printf ' %18s' "$(awk -v s="${logsum[$r]}" -v n="${count[$r]}" 'BEGIN { printf "%.3f (%d)", exp(s / n), n }')"
    else
      printf ' %18s' -
    fi
  done
  printf '\n\n'
}

make_def_line() {  # variant class key: a line of the scratch copy's make.def, as built
  grep -m1 "^$3[[:space:]]*=" "$work/refs/$1-$2/config/make.def" 2>/dev/null | sed 's/[[:space:]]*=[[:space:]]*/ = /' ||
    echo "$3: (not built)"
}

report() {
  local acc_commit dirty=""
  # A copy without .git (a device machine's) can name the commit in ACC_COMMIT.
  if acc_commit=$(git rev-parse --short HEAD 2>/dev/null); then
    git diff --quiet HEAD -- include src examples CMakeLists.txt cmake || dirty=" (with uncommitted changes)"
  else
    acc_commit=${ACC_COMMIT:-unknown}
  fi
  echo "NPB: acc against the reference implementations, median of $rounds runs (bench/npb.sh)"
  echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "device:  $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1 || echo 'no nvidia-smi')"
  echo "host:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cpus"
  echo "nvcc:    $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo none)   g++: $(g++ -dumpfullversion 2>/dev/null)"
  echo "runs:    PROGRAMS=\"${programs[*]}\" CLASSES=\"${classes[*]}\" HOST_CLASSES=\"${host_classes[*]}\" ROUNDS=$rounds;" \
       "$(cat "$work/build-duration" "$work/durations" 2>/dev/null | paste -sd, | sed 's/,/, /g')"
  echo "acc:     $acc_commit$dirty; CMake Release, examples/npb_<p> built as npb_<p>_cuda (sm_$arch) and npb_<p>_openmp"
  local r
  for r in NPB-GPU:"$npb_gpu" NPB-CPP:"$npb_cpp"; do
    echo "${r%%:*}: $(cat "${r#*:}/.commit" 2>/dev/null || echo 'commit unknown') (${r#*:})"
  done
  echo
  echo "Commands (the class is the acc binaries' argument; NPB's is built in, run from its bin/):"
  local c0=${classes[0]:-B} h0=${host_classes[0]:-B}
  [ "$do_cuda" = 1 ] && {
    echo "  acc-cuda:      ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-nvidia} $(binary acc-cuda '<p>' "$c0") <class>"
    echo "  npbgpu:        $(binary npbgpu '<p>' '<class>')   built with make -C <copy>/<P> CLASS=<class>:"
    echo "                 $(make_def_line npbgpu "$c0" COMPUTE_CAPABILITY)"
    echo "                 $(make_def_line npbgpu "$c0" OPTIMIZATIONS)"
    [ "$do_nofast" = 1 ] && echo "  npbgpu-nofast: $(binary npbgpu-nofast '<p>' '<class>'), the same with" &&
      echo "                 $(make_def_line npbgpu-nofast "$c0" OPTIMIZATIONS)"
  }
  [ "$do_host" = 1 ] && {
    echo "  acc-omp:       OMP_NUM_THREADS=$threads $(binary acc-omp '<p>' "$h0") <class>"
    echo "  npbomp:        OMP_NUM_THREADS=$threads $(binary npbomp '<p>' '<class>'), built with"
    echo "                 $(make_def_line npbomp "$h0" CC) $(make_def_line npbomp "$h0" CFLAGS)"
  }
  echo "  Each program's own timed section, in seconds; cells that are not numbers say why"
  echo "  (no build, no class: the port lacks that class, FAILED: non-zero exit, unverified, timeout)."
  echo "  acc/ref below 1: acc is faster. verified: all runs of the row verified."
  echo
  [ "$do_cuda" = 1 ] && table cuda "GPU: acc cuda against NPB-GPU (npbgpu: as shipped, -use_fast_math; npbgpu-nofast: without)" \
    "${cuda_impls[@]}"
  [ "$do_host" = 1 ] && table host "CPU: acc openmp against NPB-OMP, $threads threads" acc-omp npbomp
}

write_report() {
  mkdir -p "$(dirname "$results")"
  report > "$results"
  cat "$results"
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp "$results" "$records" "$OUT/"
    tar -czf "$OUT/npb-logs.tar.gz" -C "$work" logs
  fi
}

case ${1:-all} in
  all) build_all acc refs; run_all; write_report ;;
  build) build_all acc refs ;;
  build-acc) build_all acc ;;
  build-refs) build_all refs ;;
  run) run_all; write_report ;;
  table) write_report ;;
  parse)
    shift
    for f in "$@"; do echo "$f: $(parse "$f")"; done ;;
  *) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 2 ;;
esac
