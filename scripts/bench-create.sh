#!/usr/bin/env bash
# Packing trees of small files: `hpf create` (through the real CLI, JVM start included: --codec
# none, the default (lz4), --codec zstd and --solid) against `tar cf` and `tar cf - | zstd -3` of
# the same tree onto the same disk; wall time, CPU time (user + system) and bytes written. Runs
# alternate; each is repeated; the page cache is warm for every system.
# Trees: kernel (the Linux source, 78k files, median 3.9 KB), tiny-90k (90,000 pieces of the
# kernel's text of 100-2,000 bytes, scripts/gen-tiny-tree.py), tiny-1m (1,000,000 such pieces).
# Also, once per run: the start-up of a packing command (create of an empty directory, median of
# 7) and, on tiny-1m, `hpf add` of 1,000 files into its 1M-entry archive against `tar rf` of the
# same files onto its tar.
# Writes JSON lines to bench-results/create.jsonl.
# Usage: scripts/bench-create.sh [repetitions] [tree...]   (default: 3 kernel tiny-90k tiny-1m)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
shift || true
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(kernel tiny-90k tiny-1m)
./scripts/install-corpora.sh >/dev/null
./hpf --version >/dev/null # build first, outside the timings
out=bench-data/create-out
mkdir -p bench-results "$out"
commit=$(git rev-parse --short HEAD)
machine=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
jdk=$(java -version 2>&1 | head -1 | tr -d '"')

tree_dir() { # the directory of a tree, made if missing
  case "$1" in
    kernel) echo bench-data/linux-source-6.1 ;;
    tiny-90k | tiny-1m)
      local n=90000
      [ "$1" = tiny-1m ] && n=1000000
      [ -d "bench-data/$1" ] || python3 scripts/gen-tiny-tree.py bench-data/linux-source-6.1 "bench-data/$1.tmp" "$n"
      [ -d "bench-data/$1" ] || mv "bench-data/$1.tmp" "bench-data/$1"
      echo "bench-data/$1"
      ;;
    *) echo "unknown tree: $1" >&2; exit 2 ;;
  esac
}

record() { # benchmark, tree, system, files, bytes, seconds, cpu, output bytes, command
  printf '{"benchmark":"%s","tree":"%s","system":"%s","files":%s,"bytes":%s,"seconds":%.3f,"cpu_seconds":%.3f,"output_bytes":%s,"command":"%s","machine":"%s","cores":%s,"jdk":"%s","commit":"%s"}\n' \
    "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$machine" "$(nproc)" "$jdk" "$commit" |
    tee -a bench-results/create.jsonl
}

timed() { # command...: runs it, sets $seconds (wall, sync included) and $cpu (user + system)
  sync
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o /tmp/hpf-bench-create.time "$@" >/dev/null 2>/tmp/hpf-bench-create.err ||
    { cat /tmp/hpf-bench-create.err >&2; exit 1; }
  sync
  t1=$(date +%s.%N)
  seconds=$(awk "BEGIN{print $t1 - $t0}")
  cpu=$(awk '{print $1 + $2}' /tmp/hpf-bench-create.time)
}

run() { # tree, name, command...
  local tree="$1" name="$2"
  shift 2
  rm -rf "${out:?}"/*
  timed "$@"
  record create "$tree" "$name" "$files" "$bytes" "$seconds" "$cpu" "$(du -sb "$out" | cut -f1)" "$*"
}

mkdir -p "$out/empty-src"
for i in $(seq 7); do
  rm -rf "$out/empty.hpf"
  timed ./hpf create "$out/empty.hpf" "$out/empty-src"
  record startup empty create-empty 0 0 "$seconds" "$cpu" 0 "hpf create A EMPTY-DIR"
done

for tree in "${trees[@]}"; do
  src=$(tree_dir "$tree")
  files=$(find "$src" -type f | wc -l)
  bytes=$(du -sb "$src" | cut -f1)
  find "$src" -type f -print0 | xargs -0 cat >/dev/null # page cache warm for every system
  parent=$(dirname "$src")
  base=$(basename "$src")
  for i in $(seq "$reps"); do
    run "$tree" tar tar cf "$out/t.tar" -C "$parent" "$base"
    run "$tree" tar-zstd bash -c "tar cf - -C $parent $base | zstd -3 -q -o $out/t.tar.zst"
    run "$tree" hpf-none ./hpf create --codec none "$out/none.hpf" "$src"
    run "$tree" hpf-default-lz4 ./hpf create "$out/default.hpf" "$src"
    run "$tree" hpf-zstd-dict ./hpf create --codec zstd "$out/zstd.hpf" "$src"
    run "$tree" hpf-solid ./hpf create --solid "$out/solid.hpf" "$src"
  done
done

# hpf add of 1,000 files into the 1M-entry archive, against tar rf of them onto the tree's tar.
if [[ " ${trees[*]} " == *" tiny-1m "* ]]; then
  src=$(tree_dir tiny-1m)
  more="$out-more/added"
  rm -rf "$out-more" && mkdir -p "$more"
  # (sed, not head: head's early exit would end find with SIGPIPE, and pipefail the script)
  find "$(tree_dir tiny-90k)" -type f | sed -n 1,1000p | while read -r f; do cp "$f" "$more/$(basename "$f")"; done
  rm -rf "${out:?}"/*
  ./hpf create "$out/million.hpf" "$src" >/dev/null
  tar cf "$out/million.tar" -C "$(dirname "$src")" "$(basename "$src")"
  for i in $(seq "$reps"); do
    cp -a "$out/million.tar" "$out/copy.tar"
    timed tar rf "$out/copy.tar" -C "$out-more" added
    record add-1k tiny-1m tar-append 1000 "$(du -sb "$more" | cut -f1)" "$seconds" "$cpu" 0 "tar rf MILLION.tar added/"
    rm -rf "$out/copy.hpf" && cp -a "$out/million.hpf" "$out/copy.hpf"
    timed ./hpf add --prefix added/ "$out/copy.hpf" "$more"
    record add-1k tiny-1m hpf-add 1000 "$(du -sb "$more" | cut -f1)" "$seconds" "$cpu" 0 "hpf add --prefix added/ MILLION.hpf added/"
  done
  rm -rf "$out-more"
fi
rm -rf "$out"
