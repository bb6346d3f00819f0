#!/usr/bin/env bash
# Multi-GPU scaling on a GPU machine, from any directory: bench_multi_gpu (triad and halo
# stencil in one process, 1..G devices, strong and weak; the devices clause on one device
# against a plain loop), then examples/mpi_heat2d on 1..G ranks (one GPU each), strong
# (fixed grid) and weak (grid rows grow with the ranks), with both halo paths where MPI is
# CUDA-aware. G is the number of GPUs the runtime sees. Arguments go to bench_multi_gpu.
# With $OUT set, the output is also kept in $OUT/multi_gpu.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

cmake -S . -B build-bench -DACC_BUILD_BENCH=ON -DACC_BUILD_TESTS=OFF -DACC_BUILD_EXAMPLES=ON -DACC_BACKENDS=cuda \
      -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
targets=(bench_multi_gpu)
cmake --build build-bench --target help | grep -q mpi_heat2d_cuda && targets+=(mpi_heat2d_cuda)
cmake --build build-bench -j16 --target "${targets[@]}" || exit 1

log=${OUT:+$OUT/multi_gpu.txt}
{
  status=0
  build-bench/bench/bench_multi_gpu "$@" || status=1
  heat=build-bench/examples/mpi_heat2d_cuda
  if [[ -x $heat ]] && command -v mpirun >/dev/null; then
    gpus=$(nvidia-smi -L | wc -l)
    mpi=(mpirun --oversubscribe --allow-run-as-root --bind-to none)
    n=8192 iters=200
    for halo in staged cuda-aware; do
      for ((np = 1; np <= gpus; ++np)); do
        "${mpi[@]}" -np $np $heat $n $iters $halo | grep -E "ranks on|not CUDA-aware" || true
      done
      for ((np = 1; np <= gpus; ++np)); do  # weak: n * n / np constant
        nw=$(awk -v n=$n -v p=$np 'BEGIN { printf "%d", n * sqrt(p) }')
        "${mpi[@]}" -np $np $heat $nw $iters $halo | grep -E "ranks on|not CUDA-aware" || true
      done
    done
  else
    echo "multi_gpu: mpi_heat2d not built (no MPI found) or no mpirun; skipped"
  fi
  exit $status
} 2>&1 | if [[ -n $log ]]; then tee "$log"; else cat; fi
exit "${PIPESTATUS[0]}"
