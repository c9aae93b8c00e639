#!/usr/bin/env bash
# hpf mount against ratarmount (pip; the peer) over an uncompressed tar of the same tree, and
# against the plain tree, page cache warm (one run first, then the median of three):
#   walk    find -type f -printf '%s %m'            the metadata of every file
#   read    find -type f | xargs cat                 every file's bytes
#   random  10,000 random files read by 8 cats at once
# on the kernel source tree and on a tree of tiny files; then the time from the mount command to
# its first answer (ls of the root) on archives of the tiny tree and of 1M entries.
# One JSON line per measurement in bench-results/mount.jsonl.
# Usage: scripts/bench-mount.sh [--tiny-files N] [--million-files N] [--runs N] [--kernel DIR|none]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
tiny_files=100000
million_files=1000000
runs=3
kernel=bench-data/linux-source-6.1
while [ $# -gt 0 ]; do
  case "$1" in
    --tiny-files) tiny_files=$2; shift 2 ;;
    --million-files) million_files=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    *) echo "bench-mount.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
BENCH_ARGS="--tiny-files $tiny_files --million-files $million_files --runs $runs --kernel $kernel"
bench_build
./scripts/install-fuse.sh
[ "$kernel" != bench-data/linux-source-6.1 ] || ./scripts/install-corpora.sh >/dev/null
venv="$HOME/.cache/hpf/venv-ratarmount"
if ! "$venv/bin/ratarmount" --version >/dev/null 2>&1; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q ratarmount
fi
rat_version=$("$venv/bin/ratarmount" --version 2>/dev/null | sed -n 1p)
out=bench-results/mount.jsonl
mkdir -p bench-results
work="${HPF_BENCH_WORK:-/tmp/hpf-bench-mount}"
rm -rf "$work" && mkdir -p "$work"
cleanup() {
  { grep -o " $work/[^ ]*" /proc/self/mounts 2>/dev/null || true; } | while read -r m; do
    fusermount3 -u -z "$m" 2>/dev/null || fusermount -u -z "$m" 2>/dev/null || true
  done
}
trap cleanup EXIT


median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Seconds one command takes, median of $runs after one warming run.
timed() { # timed DIR COMMAND: runs COMMAND (a shell string) in DIR
  local dir=$1 cmd=$2 i start
  (cd "$dir" && eval "$cmd") >/dev/null 2>&1
  for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    (cd "$dir" && eval "$cmd") >/dev/null 2>&1
    echo "$(date +%s.%N) - $start" | bc
  done | median
}

measure_tree() { # measure_tree NAME SOURCE
  local name=$1 src=$2 files
  files=$(find "$src" -type f | wc -l)
  (cd "$src" && find . -type f) | shuf -n 10000 --random-source=<(yes) >"$work/$name.random"
  tar -cf "$work/$name.tar" -C "$src" .
  ./hpf create "$work/$name.hpf" "$src" >/dev/null
  mkdir -p "$work/$name-hpf" "$work/$name-rat"
  ./hpf mount "$work/$name.hpf" "$work/$name-hpf" >/dev/null
  "$venv/bin/ratarmount" "$work/$name.tar" "$work/$name-rat" >/dev/null 2>&1
  local -A dirs=([plain]="$src" [hpf]="$work/$name-hpf" [ratarmount]="$work/$name-rat")
  local -A ops=(
    [walk]="find . -type f -printf '%s %m\n'"
    [read]="find . -type f -print0 | xargs -0 cat"
    [random]="xargs -d '\n' -P 8 -n 64 cat < '$work/$name.random'")
  for op in walk read random; do
    for system in plain hpf ratarmount; do
      seconds=$(timed "${dirs[$system]}" "${ops[$op]}")
      json_line "$out" benchmark mount tree "$name" files "$files" op "$op" system "$system" \
        seconds "$seconds" peer "$rat_version"
    done
  done
  ./hpf umount "$work/$name-hpf"
  fusermount3 -u "$work/$name-rat" 2>/dev/null || fusermount -u "$work/$name-rat"
}

# From the mount command to the first listing of the root, the archive or tar already indexed.
first_answer() { # first_answer NAME FILES
  local name=$1 files=$2 i start seconds
  mkdir -p "$work/$name-first"
  # ratarmount's index of the tar is built by its first mount (and kept beside the tar): not timed.
  "$venv/bin/ratarmount" "$work/$name.tar" "$work/$name-first" >/dev/null 2>&1
  fusermount3 -u "$work/$name-first" 2>/dev/null || fusermount -u "$work/$name-first"
  for system in hpf ratarmount; do
    for i in $(seq "$runs"); do
      start=$(date +%s.%N)
      if [ "$system" = hpf ]; then
        ./hpf mount "$work/$name.hpf" "$work/$name-first" >/dev/null
      else
        "$venv/bin/ratarmount" "$work/$name.tar" "$work/$name-first" >/dev/null 2>&1
      fi
      ls "$work/$name-first" >/dev/null
      echo "$(date +%s.%N) - $start" | bc
      fusermount3 -u "$work/$name-first" 2>/dev/null || fusermount -u "$work/$name-first"
      sleep 1
    done >"$work/first.times"
    seconds=$(median <"$work/first.times")
    json_line "$out" benchmark mount tree "$name" files "$files" op first_answer system "$system" \
      seconds "$seconds" peer "$rat_version"
  done
}

[ "$kernel" = none ] || measure_tree kernel "$kernel"
tiny_tree "$work/tiny" "$tiny_files"
measure_tree tiny "$work/tiny"
first_answer tiny "$tiny_files"
rm -rf "$work/tiny" "$work/tiny.tar"
tiny_tree "$work/million" "$million_files"
tar -cf "$work/million.tar" -C "$work/million" .
./hpf create "$work/million.hpf" "$work/million" >/dev/null
rm -rf "$work/million"
first_answer million "$million_files"
rm -rf "$work"
