#!/usr/bin/env bash
# Packing the Linux kernel source tree: `hpf create` (through the real CLI, JVM start included:
# --codec none, the default (lz4), --codec zstd and --solid) against `tar cf` and `tar cf - | zstd -3` of the
# same tree onto the same disk. Runs alternate; each is repeated.
# Writes JSON lines to bench-results/create.jsonl.
# Usage: scripts/bench-create.sh [repetitions]   (installs the corpus first if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
./scripts/install-corpora.sh >/dev/null
./hpf --version >/dev/null   # build first, outside the timings
src=bench-data/linux-source-6.1
out=bench-data/create-out
mkdir -p bench-results "$out"
files=$(find "$src" -type f | wc -l)
bytes=$(du -sb "$src" | cut -f1)
commit=$(git rev-parse --short HEAD)
machine=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
jdk=$(java -version 2>&1 | head -1 | tr -d '"')
cat "$src" >/dev/null 2>&1 || true
find "$src" -type f -print0 | xargs -0 cat >/dev/null   # page cache warm for every system

run() { # name, command...
  local name="$1"; shift
  rm -rf "$out"/*
  sync
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>/tmp/hpf-bench-create.err || { cat /tmp/hpf-bench-create.err >&2; exit 1; }
  sync
  t1=$(date +%s.%N)
  local size
  size=$(du -sb "$out" | cut -f1)
  printf '{"benchmark":"create","system":"%s","files":%s,"bytes":%s,"seconds":%.3f,"output_bytes":%s,"command":"%s","machine":"%s","cores":%s,"jdk":"%s","commit":"%s"}\n' \
    "$name" "$files" "$bytes" "$(awk "BEGIN{print $t1 - $t0}")" "$size" "$*" "$machine" "$(nproc)" "$jdk" "$commit" \
    | tee -a bench-results/create.jsonl
}

for i in $(seq "$reps"); do
  run tar tar cf "$out/kernel.tar" -C bench-data linux-source-6.1
  run tar-zstd bash -c "tar cf - -C bench-data linux-source-6.1 | zstd -3 -q -o $out/kernel.tar.zst"
  run hpf-none ./hpf create --codec none "$out/kernel-none.hpf" "$src"
  run hpf-default-lz4 ./hpf create "$out/kernel-default.hpf" "$src"
  run hpf-zstd-dict ./hpf create --codec zstd "$out/kernel-zstd.hpf" "$src"
  run hpf-solid ./hpf create --solid "$out/kernel-solid.hpf" "$src"
done
rm -rf "$out"
