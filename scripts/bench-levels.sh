#!/usr/bin/env bash
# zstd levels and groups for packing for size (docs/BENCHMARKS.md, "Codecs, groups and packing for size": packing for size):
# `hpf create` at each level, without groups and with --solid's groups, of the paper suite's
# `bench` logs (20,000 files) and kernel files (10,000), beside `tar | zstd -N` and `tar | gzip -6`
# of the same files. Archive bytes (every file of it) and wall seconds, JSON lines in
# bench-results/levels.jsonl. About 6 minutes on 2 cores.
# Usage: scripts/bench-levels.sh [levels]   (default "3 6 9 10 11 12")
set -euo pipefail
cd "$(dirname "$0")/.."
levels=${1:-"3 6 9 10 11 12"}
source scripts/bench-java.sh
staged="$work/staged" # on disk, as the measured runs had them
out="$work/out"
mkdir -p "$out"
java -cp "$snapshot/hpf-bench.jar" io.hpf.bench.paper.StageDatasets --out "$staged" --scale bench \
  --kernel bench-data/linux-source-6.1 --dataset hpf-logs --dataset kernel
./hpf --version >/dev/null # built outside the timings
machine=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
jdk=$(java -version 2>&1 | head -1 | tr -d '"')
record() { # dataset system seconds bytes command
  printf '{"benchmark":"levels","dataset":"%s","system":"%s","seconds":%s,"output_bytes":%s,"command":"%s","machine":"%s","cores":%s,"jdk":"%s","commit":"%s"}\n' \
    "$1" "$2" "$3" "$4" "$5" "$machine" "$(nproc)" "$jdk" "$HPF_COMMIT" | tee -a bench-results/levels.jsonl
}
timed() { # dataset system output command...: runs the command, records its time and output bytes
  local dataset=$1 system=$2 output=$3 t0 t1
  shift 3
  rm -rf "${out:?}"/*
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  record "$dataset" "$system" "$(awk "BEGIN{print $t1 - $t0}")" "$(du -sb "$output" | cut -f1)" "$*"
}
for dataset in hpf-logs kernel; do
  find "$staged/$dataset" -type f -print0 | xargs -0 cat >/dev/null # page cache warm
  for level in $levels; do
    timed "$dataset" "hpf-level-$level" "$out/a.hpf" \
      ./hpf create --level "$level" --group-size 0 "$out/a.hpf" "$staged/$dataset"
    timed "$dataset" "hpf-level-$level-solid-groups" "$out/a.hpf" \
      ./hpf create --solid --level "$level" "$out/a.hpf" "$staged/$dataset"
    timed "$dataset" "tar-zstd-$level" "$out/a.tar.zst" \
      bash -c "tar cf - -C $staged $dataset | zstd -$level -q -o $out/a.tar.zst"
  done
  timed "$dataset" "tar-gzip-6" "$out/a.tar.gz" \
    bash -c "tar cf - -C $staged $dataset | gzip -6 > $out/a.tar.gz"
done
