#!/usr/bin/env bash
# Programs writing trees through `hpf mount --writable`, against a plain ext4 directory and
# ratarmount's write overlay (pip; the peer) with its commit into the tar, side by side:
#   cp     cp -r of the tree into the mount
#   tar    tar xf of the tree's tar into the mount
# on the kernel source tree and on 100,000 tiny files. Times are wall seconds, median of N runs,
# each into a fresh archive, directory or overlay: the program alone, then with what makes its
# files durable where they belong (hpf: `hpf umount`, which commits what is left; plain: `sync`;
# ratarmount: unmount and `--commit-overlay`). Everything lives on a fresh ext4 file system in a
# loop file (root; else in $HPF_BENCH_WORK on the current one), so that no run pays for another's
# leftovers. One JSON line per measurement in bench-results/mount-writes.jsonl.
# ratarmount is run --peer-runs times (default 1: it takes minutes where the others take seconds).
# Usage: scripts/bench-mount-writes.sh [--runs N] [--peer-runs N] [--tiny-files N]
#                                      [--kernel DIR|none]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
runs=3
tiny_files=100000
kernel=bench-data/linux-source-6.1
peer_runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --tiny-files) tiny_files=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --peer-runs) peer_runs=$2; shift 2 ;;
    *) echo "bench-mount-writes.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
BENCH_ARGS="--runs $runs --peer-runs $peer_runs --tiny-files $tiny_files --kernel $kernel"
bench_build
./scripts/install-fuse.sh --test-programs
[ "$kernel" != bench-data/linux-source-6.1 ] || ./scripts/install-corpora.sh >/dev/null
venv="$HOME/.cache/hpf/venv-ratarmount"
if [ "$peer_runs" -gt 0 ] && ! "$venv/bin/ratarmount" --version >/dev/null 2>&1; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q ratarmount
fi
rat_version=none
[ "$peer_runs" -eq 0 ] || rat_version=$("$venv/bin/ratarmount" --version 2>/dev/null | sed -n 1p)
out=bench-results/mount-writes.jsonl
mkdir -p bench-results
work="${HPF_BENCH_WORK:-/tmp/hpf-bench-mount-writes}"
image=""
cleanup() {
  { grep -o " $work/[^ ]*" /proc/self/mounts 2>/dev/null || true; } | while read -r m; do
    fusermount3 -u -z "$m" 2>/dev/null || true
  done
  if [ -n "$image" ]; then
    umount "$work" 2>/dev/null || true
    rm -f "$image"
  fi
}
trap cleanup EXIT
mkdir -p "$work"
if [ "$(id -u)" = 0 ]; then
  image="$work.img"
  rm -f "$image" && truncate -s 24G "$image" && mkfs.ext4 -q -F "$image"
  mount -o loop "$image" "$work"
  fs="ext4 in a loop file"
else
  fs="$(df -T "$work" | awk 'NR == 2 {print $2}') (not root: no loop file)"
fi
src="$work/src"
mkdir -p "$src"

# Seconds since $start, to the millisecond.
since() { echo "$(date +%s.%N) - $start" | bc; }

# One run of OP (cp or tar) of tree NAME into SYSTEM: appends a JSON line.
run_once() { # run_once NAME FILES OP SYSTEM
  local name=$1 files=$2 op=$3 system=$4 into write durable
  into="$work/into"
  rm -rf "$into" "$work/a.hpf" "$work/rat" && mkdir -p "$into"
  case "$system" in
    hpf) ./hpf mount --writable "$work/a.hpf" "$into" >/dev/null ;;
    ratarmount)
      mkdir -p "$work/rat/overlay" "$work/rat/seed" && echo seed >"$work/rat/seed/README"
      tar -cf "$work/rat/a.tar" -C "$work/rat/seed" README # it refuses an empty tar
      "$venv/bin/ratarmount" --write-overlay "$work/rat/overlay" "$work/rat/a.tar" "$into" >/dev/null 2>&1 ;;
  esac
  sync
  start=$(date +%s.%N)
  if [ "$op" = cp ]; then
    cp -r "$src/$name" "$into/" 2>/dev/null || true # symbolic links: refused by both mounts
  else
    tar -xf "$work/$name.tar" -C "$into" 2>/dev/null || true
  fi
  write=$(since)
  case "$system" in
    plain) sync ;;
    hpf) ./hpf umount "$into" ;;
    ratarmount)
      fusermount3 -u "$into"
      "$venv/bin/ratarmount" --commit-overlay --write-overlay "$work/rat/overlay" \
        "$work/rat/a.tar" "$into" <<<commit >/dev/null 2>&1 ;;
  esac
  durable=$(since)
  json_line "$out" benchmark mount-writes tree "$name" files "$files" op "$op" system "$system" \
    seconds "$write" durable_seconds "$durable" fs "$fs" peer "$rat_version"
}

measure_tree() { # measure_tree NAME
  local name=$1 files op system i
  files=$(find "$src/$name" -type f | wc -l)
  tar -cf "$work/$name.tar" -C "$src" "$name"
  for op in cp tar; do
    for i in $(seq "$runs"); do
      for system in plain hpf $([ "$i" -le "$peer_runs" ] && echo ratarmount); do
        run_once "$name" "$files" "$op" "$system"
      done
    done
  done
  rm -f "$work/$name.tar"
}

if [ "$kernel" != none ]; then
  cp -r "$kernel" "$src/kernel"
  measure_tree kernel
  rm -rf "$src/kernel"
fi
tiny_tree "$src/tiny" "$tiny_files"
measure_tree tiny
