#!/usr/bin/env bash
# Exports the reference programs that bench/npb.sh compares acc against into .deps/refs/ (an
# ignored folder that travels with the working tree to the GPU machine, which has no network):
#   .deps/refs/NPB-GPU      GMAP/NPB-GPU, hand-written CUDA NPB (whole tree, about 2.4 MB)
#   .deps/refs/NPB-CPP      GMAP/NPB-CPP, only NPB-OMP and NPB-SER (about 1 MB; its libs/ folder
#                           of 10 MB serves the FastFlow and TBB versions, which are not used)
#   .deps/refs/gpu-rodinia  yuhc/gpu-rodinia, only cuda/, openmp/, common/ and data/ (about 11 MB)
# They are read-only references for building and running: nothing from them goes into the
# repository. Run from anywhere, on a machine that has the bare mirrors:
#   bench/refs.sh                       (mirrors under /work/.mirror; MIRRORS=dir to change)
# Each export replaces the previous one. Blobs that the mirror lists but does not hold (a few
# output files of Rodinia) are left out with a warning, since git archive stops on them.
set -euo pipefail
cd "$(dirname "$0")/.."
mirrors=${MIRRORS:-/work/.mirror}
dest=.deps/refs

export_tree() {  # mirror name, destination folder, [paths inside the tree ...]
  local name=$1 git_dir=$mirrors/$1/repo out=$dest/$2
  shift 2
  [ -d "$git_dir" ] || { echo "refs.sh: no mirror at $git_dir" >&2; return 1; }
  local excludes=()
  local _mode type blob path
  while read -r _mode type blob path; do
    if [ "$type" = blob ] && ! git --git-dir="$git_dir" cat-file -e "$blob" 2>/dev/null; then
      echo "refs.sh: $name: $path is absent from the mirror; left out" >&2
      excludes+=(":(exclude)$path")
    fi
  done < <(git --git-dir="$git_dir" ls-tree -r HEAD -- "$@")
  rm -rf "$out"
  mkdir -p "$out"
  # git archive still names an excluded absent blob on stderr, though it leaves it out and succeeds.
  git --git-dir="$git_dir" archive HEAD -- "$@" "${excludes[@]}" 2> >(grep -v '^error: invalid object' >&2) |
    tar -x -C "$out"
  git --git-dir="$git_dir" rev-parse HEAD > "$out/.commit"
  echo "$out: $(du -sh "$out" | cut -f1) (commit $(cut -c1-12 "$out/.commit"))"
}

export_tree GMAP+NPB-GPU NPB-GPU .
export_tree GMAP+NPB-CPP NPB-CPP NPB-OMP NPB-SER README.md LICENSE.md
export_tree yuhc+gpu-rodinia gpu-rodinia cuda openmp common data Makefile README LICENSE
echo "total: $(du -sh "$dest" | cut -f1) (the carried paths of a device run may hold 64 MiB in all)"
