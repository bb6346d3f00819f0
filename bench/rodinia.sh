#!/usr/bin/env bash
# Compares acc's Rodinia 3.1 ports (examples/<name>, built as <name>_cuda) with Rodinia's own CUDA
# programs on a GPU machine, kernel time against kernel time, and writes a table to
# bench/results/h100-rodinia.txt.
#
#   bench/rodinia.sh                 build both sides, run ROUNDS rounds, write the table
#   bench/rodinia.sh --build-only    only build Rodinia's programs (works without a GPU)
#   PROGRAMS="nw lud" ROUNDS=1 bench/rodinia.sh
# Environment: RODINIA (Rodinia's tree, default .deps/refs/gpu-rodinia, as bench/refs.sh exports
# yuhc/gpu-rodinia: cuda/ and common/), ACC_BUILD (default build/gpu), ACC_SUFFIX (default cuda:
# which build of the ports runs; openmp runs the host build to test this script without a GPU),
# WORK (scratch, default build/rodinia-cuda), ARCH (sm_90), ROUNDS (3), RESULT (the table's file),
# SMALL=1 (small problems, to test the script).
#
# Building Rodinia's programs. Each is copied into WORK and compiled here with nvcc -O3
# -arch=$ARCH, one command per program instead of its Makefile (whose -arch=sm_13/sm_20,
# compute_20 and -G flags CUDA 13 rejects or that would time debug code). The copies are
# patched for CUDA 13, nothing else: cudaThreadSynchronize -> cudaDeviceSynchronize;
# cudaDeviceProp's removed clockRate and deviceOverlap printed as 0 (gaussian); kmeans' texture
# references (removed in CUDA 12) become plain pointers read through __ldg, its
# cudaMemcpyToSymbol by name takes the symbol, and cudaSetDevice(1) becomes device 0; cfd gets
# two tiny stand-ins for the CUDA samples' helper_cuda.h / helper_timer.h (bench/rodinia/shim).
# myocyte's copy reads its data files from $WORK/inputs/myocyte instead of ../../data/myocyte.
# Flags: the same -O3 for both sides, no -use_fast_math (lud's and particlefilter's Makefiles
# have it; acc's ports are built without).
#
# Timing. acc's ports time the device work of each variant with a steady clock (inputs already
# on the device, the work drained at the end; median of 5 runs after a warm-up) and print
# "  variant <name>: <seconds> s". Rodinia's programs time the whole run or nothing comparable,
# so the copies get bench_start()/bench_stop() (bench/rodinia/bench_timer.h: a device
# synchronisation and a steady clock) around the kernel section that corresponds to the port's
# timed region, inserted by the `mark` calls below; the sections' sum is printed at exit. The
# originals run their kernels once per process, so CUDA_MODULE_LOADING=EAGER keeps module
# loading out of their first launch, and each side's time per round is then one number:
# the median over ROUNDS rounds (acc and the original alternating) is reported for both.
# Where an original does part of an iteration on the host (kmeans' centre update, srad's ROI
# statistics, backprop's partial sums and small layer), that host part is inside the section for
# kmeans (its clustering loop, as the port's) and outside it for srad and backprop (only their
# kernels are bracketed; the ports do those parts on the device and count them).
#
# Inputs. Rodinia's data files are not in its repository; bench/rodinia/inputs.cpp writes them
# in Rodinia's formats with the data acc's ports generate (same generators and seeds), so both
# sides solve the same problem (kmeans' and bfs' iteration counts depend on the data). Programs
# that generate their own input (nw, lud -s, gaussian -s, srad, pathfinder, backprop, lavaMD,
# particlefilter, streamcluster: its points from lrand48, ours from splitmix64) get the same
# sizes. A program that fails to build or run is reported in the
# table, and the rest go on.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root=$PWD

build_only=0
[ "${1:-}" = "--build-only" ] && build_only=1
RODINIA=$(realpath -m "${RODINIA:-.deps/refs/gpu-rodinia}")
ACC_BUILD=${ACC_BUILD:-build/gpu}
ACC_SUFFIX=${ACC_SUFFIX:-cuda}
WORK=$(realpath -m "${WORK:-build/rodinia-cuda}")
ARCH=${ARCH:-sm_90}
ROUNDS=${ROUNDS:-3}
RESULT=${RESULT:-bench/results/h100-rodinia.txt}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
JOBS=${JOBS:-$(nproc)}
all_programs="nw lud gaussian nn bfs hotspot hotspot3D pathfinder srad lavaMD backprop kmeans cfd particlefilter b+tree streamcluster myocyte"
PROGRAMS=${PROGRAMS:-$all_programs}

# Problem sizes: acc's defaults, which are Rodinia's run sizes (hotspot: 1024 x 1024, 100 steps,
# pyramid 2; srad: 2048 x 2048, ROI 0..63, 100 iterations; cfd: 100 iterations where Rodinia
# hard-codes 2000; backprop: 1048560 inputs, not this fork's run script's 2097152: the original
# launches a grid of (1, inputs / 16) blocks, and gridDim.y stops at 65535, so 65535 x 16 is
# the most it can run; with more its first launch fails).
if [ "${SMALL:-0}" = 1 ]; then
  nw_n=256 lud_n=256 gauss_n=256 nn_n=4000 bfs_n=20000 hs_n=256 hs_it=20 hs3_n=64 hs3_l=8 hs3_it=20
  pf_cols=10000 pf_rows=100 pf_h=20 srad_n=256 srad_it=10 lava_b=3 bp_n=65536 km_n=20000 km_f=34
  km_k=5 cfd_n=6000 cfd_it=20 part_xy=64 part_fr=6 part_np=2000 bt_n=100000 bt_k=2000 bt_j=1000
  bt_r=300 sc_dim=64 sc_n=16384 my_w=64
else
  nw_n=2048 lud_n=2048 gauss_n=1024 nn_n=42764 bfs_n=1000000 hs_n=1024 hs_it=100 hs3_n=512 hs3_l=8
  hs3_it=100 pf_cols=100000 pf_rows=100 pf_h=20 srad_n=2048 srad_it=100 lava_b=10 bp_n=1048560
  km_n=494020 km_f=34 km_k=5 cfd_n=193474 cfd_it=100 part_xy=128 part_fr=10 part_np=10000
  bt_n=1000000 bt_k=10000 bt_j=6000 bt_r=3000 sc_dim=256 sc_n=65536 my_w=1024
fi

# Per program: the acc port's arguments, and the original's command line (run in its scratch
# folder, inputs in $WORK/inputs).
declare -A acc_args cuda_cmd
inputs=$WORK/inputs
acc_args[nw]="$nw_n 10";                      cuda_cmd[nw]="./needle $nw_n 10"
acc_args[lud]="$lud_n";                       cuda_cmd[lud]="./lud_cuda -s $lud_n"
acc_args[gaussian]="$gauss_n";                cuda_cmd[gaussian]="./gaussian -s $gauss_n -q"
acc_args[nn]="$nn_n 10 30 90";                cuda_cmd[nn]="./nn $inputs/nn/filelist -r 10 -lat 30 -lng 90 -q"
acc_args[bfs]="$bfs_n";                       cuda_cmd[bfs]="./bfs $inputs/graph.txt"
acc_args[hotspot]="$hs_n $hs_n $hs_it";       cuda_cmd[hotspot]="./hotspot $hs_n 2 $hs_it $inputs/temp_$hs_n $inputs/power_$hs_n output.out"
acc_args[hotspot3D]="$hs3_n $hs3_l $hs3_it";  cuda_cmd[hotspot3D]="./3D $hs3_n $hs3_l $hs3_it $inputs/power_${hs3_n}x$hs3_l $inputs/temp_${hs3_n}x$hs3_l output.out"
acc_args[pathfinder]="$pf_cols $pf_rows $pf_h"; cuda_cmd[pathfinder]="./pathfinder $pf_cols $pf_rows $pf_h"
acc_args[srad]="$srad_n $srad_n $srad_it";    cuda_cmd[srad]="./srad $srad_n $srad_n 0 63 0 63 0.5 $srad_it"
acc_args[lavaMD]="$lava_b";                   cuda_cmd[lavaMD]="./lavaMD -boxes1d $lava_b"
acc_args[backprop]="$bp_n";                   cuda_cmd[backprop]="./backprop $bp_n"
acc_args[kmeans]="$km_n $km_f $km_k";         cuda_cmd[kmeans]="./kmeans -b -i $inputs/kmeans.bin -m $km_k -n $km_k -t 0.001"
acc_args[cfd]="$cfd_n $cfd_it";               cuda_cmd[cfd]="./euler3d $inputs/mesh.domn"
acc_args[particlefilter]="$part_xy $part_xy $part_fr $part_np"
cuda_cmd[particlefilter]="./particlefilter_float -x $part_xy -y $part_xy -z $part_fr -np $part_np"
acc_args[b+tree]="$bt_n $bt_k $bt_j $bt_r";   cuda_cmd[b+tree]="./b+tree.out file $inputs/keys.txt command $inputs/command.txt"
acc_args[streamcluster]="10 20 $sc_dim $sc_n $sc_n 1000"
cuda_cmd[streamcluster]="./sc_gpu 10 20 $sc_dim $sc_n $sc_n 1000 none output.txt 1"
# myocyte: Rodinia's program reads ../../data/myocyte/{y,params}.txt, which its repository
# lacks; inputs.cpp writes them (the values the port holds) and the copy reads them from there.
# Mode 1 (across instances) is the port's parallelisation.
acc_args[myocyte]="100 $my_w";                cuda_cmd[myocyte]="./myocyte.out 100 $my_w 1"
# The acc port's source folder and program name, where they differ from the benchmark's name.
acc_name() { echo "$1"; }

log() { echo "[rodinia] $*" >&2; }

# mark FILE START STOP [before]: puts "bench_start();" on a line of its own before the first line
# containing START (a fixed string) and "bench_stop();" after the first line from there on
# containing STOP (before it with "before"), and includes the timer. Fails if either is missing,
# so that an edited original shows up as a build failure, not as a wrong time.
mark() {
  local file=$1 start=$2 stop=$3 where=${4:-after}
  awk -v a="$start" -v b="$stop" -v before="$([ "$where" = before ] && echo 1 || echo 0)" '
    state == 0 && index($0, a) { print "bench_start();"; state = 1 }
    state == 1 && before && index($0, b) { print "bench_stop();"; state = 2 }
    { print }
    state == 1 && !before && index($0, b) { print "bench_stop();"; state = 2 }
    END { exit state == 2 ? 0 : 1 }' "$file" > "$file.marked" || { echo "mark: '$start' .. '$stop' not found in $file"; return 1; }
  mv "$file.marked" "$file"
  grep -q '"bench_timer.h"' "$file" || sed -i '1i #include "bench_timer.h"' "$file"
}

# replace FILE OLD NEW: replaces every line that contains OLD (a fixed string) by NEW; fails if
# no line does, as mark does.
replace() {
  local file=$1 old=$2 new=$3
  awk -v a="$old" -v b="$new" 'index($0, a) { print b; n++; next } { print } END { exit n ? 0 : 1 }' \
    "$file" > "$file.replaced" || { echo "replace: '$old' not found in $file"; return 1; }
  mv "$file.replaced" "$file"
}

# The CUDA 12/13 fixes every program may need, over all of its sources.
cuda13() {
  find . -type f \( -name '*.c' -o -name '*.cu' -o -name '*.h' -o -name '*.cpp' \) -print0 |
    xargs -0 sed -i -e 's/cudaThreadSynchronize/cudaDeviceSynchronize/g' -e 's/cudaThreadExit/cudaDeviceReset/g'
}

nv() { "$NVCC" -O3 -arch="$ARCH" -I"$root/bench/rodinia" "$@"; }

# build_<name>: in its scratch copy (the current folder), patch and compile; output on stdout.
build_nw() {
  mark needle.cu 'Processing top-left matrix' 'cudaMemcpy(output_itemsets' before && nv needle.cu -o needle
}
build_lud() {
  cd cuda && mark lud.cu 'lud_cuda(d_m, matrix_dim);' 'lud_cuda(d_m, matrix_dim);' &&
    nv -I../common lud.cu lud_kernel.cu ../common/common.c -o lud_cuda && mv lud_cuda ..
}
build_gaussian() {
  sed -i -e 's/deviceProp\.clockRate/0/' -e 's/deviceProp\. *deviceOverlap/0/' gaussian.cu &&
    mark gaussian.cu 'for (t=0; t<(Size-1); t++) {' '// end timing kernels' before && nv gaussian.cu -o gaussian
}
build_nn() {
  mark nn_cuda.cu 'euclid<<<' 'cudaDeviceSynchronize();' && nv nn_cuda.cu -o nn
}
build_bfs() {
  mark bfs.cu 'Start traversing the tree' 'while(stop);' && nv bfs.cu -o bfs
}
build_hotspot() {
  mark hotspot.cu 'int ret = compute_tran_temp(' 'total_iterations,pyramid_height' && nv hotspot.cu -o hotspot
}
build_hotspot3D() {
  mark opt1.cu 'long long start = get_time();' 'cudaDeviceSynchronize();' && nv 3D.cu -o 3D
}
build_pathfinder() {
  mark pathfinder.cu 'int final_ret = calc_path(' 'pyramid_height, blockCols, borderCols);' && nv pathfinder.cu -o pathfinder
}
# srad_v2's kernels read J_cuda one image row before and after the image (north/south halo
# loads of the first and last block rows, index_n = ... - cols, index_s, unconditionally, then
# overwritten with clamped values) and srad_cuda_2 reads C_cuda one element past its end
# (east of the last block); J_cuda is the first allocation, so the read before it faults
# (an illegal address, reported by bench_drain_ as bench-kernel-error). Both get one row of
# margin on each side, which no result depends on.
build_srad() {
  cd srad_v2 &&
    replace srad.cu 'cudaMalloc((void**)& J_cuda, sizeof(float)* size_I);' \
      '    cudaMalloc((void**)& J_cuda, sizeof(float) * (size_I + 2 * cols)); J_cuda += cols;' &&
    replace srad.cu 'cudaMalloc((void**)& C_cuda, sizeof(float)* size_I);' \
      '    cudaMalloc((void**)& C_cuda, sizeof(float) * (size_I + 2 * cols)); C_cuda += cols;' &&
    replace srad.cu 'cudaFree(J_cuda);' '    cudaFree(J_cuda - cols);' &&
    replace srad.cu 'cudaFree(C_cuda);' '    cudaFree(C_cuda - cols);' &&
    mark srad.cu 'srad_cuda_1<<<' 'srad_cuda_2<<<' && nv srad.cu -o srad && mv srad ..
}
build_lavaMD() {
  mark kernel/kernel_gpu_cuda_wrapper.cu 'kernel_gpu_cuda<<<' 'cudaDeviceSynchronize();' &&
    nv -Xcompiler -fopenmp main.c kernel/kernel_gpu_cuda_wrapper.cu util/num/num.c util/timer/timer.c \
      util/device/device.cu -lgomp -o lavaMD
}
build_backprop() {
  mark backprop_cuda.cu 'bpnn_layerforward_CUDA<<<' 'cudaDeviceSynchronize();' &&
    mark backprop_cuda.cu 'bpnn_adjust_weights_cuda<<<' 'cudaMemcpy(net->input_units, input_cuda' before &&
    nv backprop.c facetrain.c imagenet.c backprop_cuda.cu -o backprop
}
build_kmeans() {
  # Texture references -> pointers in device memory, set with cudaMemcpyToSymbol.
  sed -i -e 's/texture<float, *1, *cudaReadModeElementType> *\([A-Za-z_]*\);/__device__ const float* \1;/' \
         -e 's/tex1Dfetch(\([A-Za-z_]*\), *\([^)]*\))/__ldg(\1 + (\2))/g' kmeans_cuda_kernel.cu &&
    sed -i -e 's/cudaBindTexture(NULL, *&\([A-Za-z_]*\), *\([A-Za-z_]*\),.*) != CUDA_SUCCESS)/cudaMemcpyToSymbol(\1, \&\2, sizeof(float*)) != cudaSuccess)/' \
           -e '/^\s*t_[A-Za-z_]*\.\(filterMode\|normalized\|channelDesc\)/d' \
           -e 's/cudaMemcpyToSymbol("c_clusters",/cudaMemcpyToSymbol(c_clusters,/' \
           -e 's/cudaSetDevice(1)/cudaSetDevice(0)/' kmeans_cuda.cu &&
    ! grep -n 'texture<\|tex1Dfetch\|cudaBindTexture' kmeans_cuda.cu kmeans_cuda_kernel.cu &&
    mark cluster.c 'tmp_cluster_centres = kmeans_clustering(' 'membership);' &&
    nv -Xcompiler -fopenmp -I"$CUDA_HOME/include" cluster.c getopt.c kmeans.c kmeans_clustering.c rmse.c \
      kmeans_cuda.cu -lgomp -o kmeans
}
build_cfd() {
  sed -i "s/^#define iterations 2000/#define iterations $cfd_it/" euler3d.cu &&
    grep -q "^#define iterations $cfd_it\$" euler3d.cu &&
    mark euler3d.cu 'for(int i = 0; i < iterations; i++)' 'cudaDeviceSynchronize();' &&
    nv -I"$root/bench/rodinia/shim" euler3d.cu -o euler3d
}
build_particlefilter() {
  mark ex_particle_CUDA_float_seq.cu 'printf("TIME TO SEND TO GPU' 'cudaDeviceSynchronize();' &&
    nv ex_particle_CUDA_float_seq.cu -o particlefilter_float
}
build_b+tree() {
  mark kernel/kernel_gpu_cuda_wrapper.cu 'findK<<<' 'cudaDeviceSynchronize();' &&
    mark kernel/kernel_gpu_cuda_wrapper_2.cu 'findRangeK<<<' 'cudaDeviceSynchronize();' &&
    nv main.c kernel/kernel_gpu_cuda_wrapper.cu kernel/kernel_gpu_cuda_wrapper_2.cu util/timer/timer.c \
      util/num/num.c util/cuda/cuda.cu -o b+tree.out
}

build_streamcluster() {
  # One chunk (n = chunk size, as the run script): its local search is the section; the final
  # clustering of the chunk's <= kmax centres returns at once.
  mark streamcluster_cuda_cpu.cpp 'localSearch(&points,kmin, kmax,&kfinal);' 'localSearch(&points,kmin, kmax,&kfinal);' &&
    nv streamcluster_cuda_cpu.cpp streamcluster_cuda.cu -o sc_gpu
}
build_myocyte() {
  # The section is mode 1's one kernel launch (solver_2: every instance over the whole span), as
  # the port's timed parallel_loop; reading the inputs and the copies stay outside.
  sed -i "s|\.\./\.\./data/myocyte/|$inputs/myocyte/|" work.cu work_2.cu &&
    grep -q "$inputs/myocyte/params.txt" work_2.cu &&
    mark work_2.cu 'solver_2<<<' 'time4 = get_time();' before && nv main.cu -o myocyte.out
}

# Builds one original in $WORK/<name>; leaves $WORK/<name>.build.log and, on success, .ok.
build_original() {
  local p=$1 dir=$WORK/$1
  rm -rf "$dir" "$WORK/$p.ok"
  if [ ! -d "$RODINIA/cuda/$p" ]; then
    echo "no $RODINIA/cuda/$p" > "$WORK/$p.build.log"
    return
  fi
  cp -r "$RODINIA/cuda/$p" "$dir"
  (cd "$dir" && cuda13 && "build_$p") > "$WORK/$p.build.log" 2>&1 && touch "$WORK/$p.ok"
}

# The inputs both sides read (the originals from files; the ports generate the same in memory).
make_inputs() {
  mkdir -p "$inputs/nn"
  g++ -O2 -std=c++17 -o "$WORK/inputs_gen" bench/rodinia/inputs.cpp || return 1
  local gen=$WORK/inputs_gen
  for p in $PROGRAMS; do
    case $p in
      hotspot) "$gen" hotspot "$hs_n" "$hs_n" "$inputs/temp_$hs_n" "$inputs/power_$hs_n" ;;
      hotspot3D) "$gen" hotspot3D "$hs3_n" "$hs3_l" "$inputs/power_${hs3_n}x$hs3_l" "$inputs/temp_${hs3_n}x$hs3_l" ;;
      bfs) "$gen" bfs "$bfs_n" "$inputs/graph.txt" ;;
      kmeans) "$gen" kmeans "$km_n" "$km_f" "$km_k" "$inputs/kmeans.bin" ;;
      nn) "$gen" nn "$nn_n" "$inputs/nn" ;;
      cfd) "$gen" cfd "$cfd_n" "$inputs/mesh.domn" ;;
      myocyte) mkdir -p "$inputs/myocyte" && "$gen" myocyte "$inputs/myocyte" ;;
      b+tree) "$gen" b+tree "$bt_n" "$bt_k" "$bt_j" "$bt_r" "$inputs/keys.txt" "$inputs/command.txt" ;;
    esac || log "input generation failed for $p"
  done
}

mkdir -p "$WORK"
[ -d "$RODINIA/cuda" ] || log "warning: no Rodinia tree at $RODINIA (bench/refs.sh exports it); originals will be missing"

# 1. Build Rodinia's programs, JOBS at a time.
log "building Rodinia's CUDA programs in $WORK with $NVCC for $ARCH"
for p in $PROGRAMS; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  build_original "$p" &
done
wait
for p in $PROGRAMS; do
  if [ -e "$WORK/$p.ok" ]; then log "built $p"; else log "FAILED to build $p (see $WORK/$p.build.log)"; fi
done
[ $build_only = 1 ] && exit 0

# 2. Build acc's ports; if building them together fails, one by one, so the rest still run.
targets=()
for p in $PROGRAMS; do targets+=("$(acc_name "$p")_$ACC_SUFFIX"); done
if [ ! -d "$ACC_BUILD" ]; then
  cmake -S . -B "$ACC_BUILD" -DCMAKE_BUILD_TYPE=Release -DACC_BUILD_TESTS=OFF > "$WORK/acc.configure.log" 2>&1 ||
    log "configuring acc failed (see $WORK/acc.configure.log)"
fi
if ! cmake --build "$ACC_BUILD" -j"$JOBS" --target "${targets[@]}" > "$WORK/acc.build.log" 2>&1; then
  for t in "${targets[@]}"; do cmake --build "$ACC_BUILD" -j"$JOBS" --target "$t" >> "$WORK/acc.build.log" 2>&1; done
fi

log "generating inputs in $inputs"
make_inputs

# 3. Run: per round and program, the port then the original; outputs kept in $WORK/out.
out=$WORK/out
rm -rf "$out"
mkdir -p "$out"
started=$(date +%s)
for round in $(seq 1 "$ROUNDS"); do
  for p in $PROGRAMS; do
    exe=$ACC_BUILD/examples/$(acc_name "$p")_$ACC_SUFFIX
    if [ -x "$exe" ]; then
      # shellcheck disable=SC2086
      OMP_WAIT_POLICY=passive timeout 300 "$exe" ${acc_args[$p]} > "$out/$p.acc.$round" 2>&1
      echo "exit status $?" >> "$out/$p.acc.$round"
    fi
    if [ -e "$WORK/$p.ok" ]; then
      (cd "$WORK/$p" && CUDA_MODULE_LOADING=EAGER timeout 300 ${cuda_cmd[$p]}) > "$out/$p.cuda.$round" 2>&1
      echo "exit status $?" >> "$out/$p.cuda.$round"
    fi
    log "round $round: $p done ($(($(date +%s) - started)) s)"
  done
done

# 4. The table. Per program and side: the median over rounds of each acc variant's seconds, and
# of the original's summed kernel sections; a side that failed in any round is marked.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
report() {
  echo "Rodinia 3.1: acc's ports against Rodinia's CUDA programs (kernel sections; median of $ROUNDS rounds)"
  echo "date:   $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo unknown)"
  echo "nvcc:   $("$NVCC" --version 2>/dev/null | tail -2 | head -1)"
  echo "acc:    $(git rev-parse --short HEAD 2>/dev/null) $ACC_BUILD/examples/<name>_$ACC_SUFFIX; Rodinia: $RODINIA"
  echo "ratio = acc's best variant / Rodinia CUDA (below 1: acc faster)"
  echo
  printf '%-15s %-30s %10s %10s %8s   %s\n' program "acc best" "acc s" "CUDA s" ratio "acc variants (s)"
  local logsum=0 count=0
  for p in $PROGRAMS; do
    local note="" variants="" best="" best_s="" cuda_s=""
    local acc_files=("$out/$p".acc.*) cuda_files=("$out/$p".cuda.*)
    if [ ! -e "${acc_files[0]}" ]; then
      note="acc: not built"
    else
      grep -L 'verification SUCCESSFUL' "${acc_files[@]}" | grep -q . && note="acc: FAILED (see $out/$p.acc.*)"
      local names
      names=$(cat "${acc_files[@]}" | awk '/^  variant /{ n = $2; sub(/:$/, "", n); print n }' | awk '!seen[$0]++')
      for v in $names; do
        local s
        s=$(cat "${acc_files[@]}" | awk -v v="$v:" '$1 == "variant" && $2 == v { print $3 }' | median)
        variants+="$v $s  "
        if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best=$v best_s=$s; fi
      done
    fi
    if [ ! -e "$WORK/$p.ok" ]; then
      note+="${note:+; }CUDA: build failed (see $WORK/$p.build.log)"
    elif [ ! -e "${cuda_files[0]}" ]; then
      note+="${note:+; }CUDA: not run"
    elif grep -L 'exit status 0$' "${cuda_files[@]}" | grep -q . || grep -q 'bench-kernel-error' "${cuda_files[@]}"; then
      note+="${note:+; }CUDA: FAILED (see $out/$p.cuda.*)"
    else
      cuda_s=$(for f in "${cuda_files[@]}"; do awk '/^bench-kernel-seconds:/ { s += $2; n++ } END { if (n) print s }' "$f"; done | median)
    fi
    local ratio="-"
    if [ -n "$best_s" ] && [ -n "$cuda_s" ] && [ -z "$note" ]; then
      ratio=$(awk -v a="$best_s" -v b="$cuda_s" 'BEGIN { printf "%.2f", a / b }')
      logsum=$(awk -v s="$logsum" -v a="$best_s" -v b="$cuda_s" 'BEGIN { printf "%.9f", s + log(a / b) }')
      count=$((count + 1))
    fi
    printf '%-15s %-30s %10s %10s %8s   %s\n' "$p" "${best:--}" "${best_s:--}" "${cuda_s:--}" "$ratio" "$variants"
    [ -n "$note" ] && printf '%-15s %s\n' "" "$note"
  done
  echo
  if [ $count -gt 0 ]; then
    echo "geometric mean of the ratios over $count programs: $(awk -v s="$logsum" -v n=$count 'BEGIN { printf "%.2f", exp(s / n) }')"
  fi
  echo
  echo "commands (acc: $ACC_BUILD/examples/<name>_$ACC_SUFFIX ARGS; CUDA: in $WORK/<name>, CUDA_MODULE_LOADING=EAGER):"
  for p in $PROGRAMS; do
    printf '  %-15s acc: %s   CUDA: %s\n' "$p" "${acc_args[$p]}" "${cuda_cmd[$p]}"
  done
}
mkdir -p "$(dirname "$RESULT")"
report | tee "$RESULT"
