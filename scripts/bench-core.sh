#!/usr/bin/env bash
# The core's one-shot commands against their peers, side by side in one run (docs/BENCHMARKS.md,
# "One-shot commands, cold gets, shared readers"): extract of the kernel tree into tmpfs against `tar xf`; a one-shot `hpf cat` of
# one entry against `unzip -p`, `tar xOf` and `java -version`; `hpf verify` against
# `unzip -tq`. Medians of N runs (default 5), the systems alternating within each run.
# Usage: scripts/bench-core.sh [runs]      (installs the corpus; about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
./scripts/install-corpora.sh >/dev/null
./hpf --version >/dev/null # build first, outside the timings
export LC_ALL=C.UTF-8
src=bench-data/linux-source-6.1
work=$(mktemp -d)
shm=$(mktemp -d -p /dev/shm)
trap 'rm -rf "$work" "$shm"' EXIT
mkdir -p bench-results
out=bench-results/core-oneshot.jsonl
rm -f "$out"
commit=$(git describe --always --dirty --abbrev=12)
machine=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
jdk=$(java -version 2>&1 | head -1 | tr -d '"')
files=$(find "$src" -type f | wc -l)

./hpf create "$work/k.hpf" "$src" >/dev/null
./hpf create --codec none "$work/k-none.hpf" "$src" >/dev/null
tar -C "$src" -cf "$work/k.tar" .
(cd "$src" && zip -q -r -0 "$work/k.zip" .)
entry=$(cd "$src" && find . -type f -name '*.c' | sed 's|^\./||' | sort | sed -n '5000p')

seconds() { # runs a command, prints its wall time in seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }'
}
record() { # benchmark system command seconds...
  local benchmark=$1 system=$2 command=$3
  shift 3
  local sorted median
  sorted=$(printf '%s\n' "$@" | sort -g)
  median=$(echo "$sorted" | sed -n "$(((${#@} + 1) / 2))p")
  printf '{"benchmark":"%s","system":"%s","files":%d,"runs":%d,"secondsMedian":%s,"secondsRuns":"%s","command":"%s","machine":"%s","cores":%d,"jdk":"%s","commit":"%s"}\n' \
    "$benchmark" "$system" "$files" "$#" "$median" "$(echo $sorted | tr ' ' ',')" "$command" \
    "$machine" "$(nproc)" "$jdk" "$commit" >>"$out"
}

declare -A t
for system in hpf-zstd hpf-none tar; do t[extract-$system]=""; done
for ((r = 0; r < runs; r++)); do
  for system in hpf-zstd hpf-none tar; do
    rm -rf "$shm/x" && mkdir "$shm/x"
    sync
    case $system in
      hpf-zstd) s=$(seconds ./hpf extract "$work/k.hpf" "$shm/x") ;;
      hpf-none) s=$(seconds ./hpf extract "$work/k-none.hpf" "$shm/x") ;;
      tar) s=$(seconds tar -C "$shm/x" -xf "$work/k.tar") ;;
    esac
    t[extract-$system]+="$s "
  done
done
record extract hpf-zstd "hpf extract k.hpf /dev/shm/x" ${t[extract-hpf-zstd]}
record extract hpf-none "hpf extract k-none.hpf /dev/shm/x" ${t[extract-hpf-none]}
record extract tar "tar -C /dev/shm/x -xf k.tar" ${t[extract-tar]}

for system in hpf unzip tar java; do t[cat-$system]=""; done
for ((r = 0; r < runs; r++)); do
  t[cat-hpf]+="$(seconds ./hpf cat "$work/k.hpf" "$entry") "
  t[cat-unzip]+="$(seconds unzip -p "$work/k.zip" "$entry") "
  t[cat-tar]+="$(seconds tar -xOf "$work/k.tar" "./$entry") "
  t[cat-java]+="$(seconds java -XX:TieredStopAtLevel=1 -version) "
done
record cat hpf "hpf cat k.hpf ENTRY" ${t[cat-hpf]}
record cat unzip "unzip -p k.zip ENTRY" ${t[cat-unzip]}
record cat tar "tar -xOf k.tar ./ENTRY" ${t[cat-tar]}
record cat java-version "java -XX:TieredStopAtLevel=1 -version" ${t[cat-java]}

for system in hpf unzip; do t[verify-$system]=""; done
for ((r = 0; r < runs; r++)); do
  t[verify-hpf]+="$(seconds ./hpf verify "$work/k.hpf") "
  t[verify-unzip]+="$(seconds unzip -tq "$work/k.zip") "
done
record verify hpf "hpf verify k.hpf" ${t[verify-hpf]}
record verify unzip "unzip -tq k.zip" ${t[verify-unzip]}
cat "$out"
