#!/usr/bin/env bash
# Group sizes (FORMAT.md "Group"): archive bytes, pack time, warm random gets against plain files
# of the same names in the same round (docs/BENCHMARKS.md, "Codecs, groups and packing for size"). Large settings on the
# kernel tree, its files of at most 1 KiB and generated logs; small settings on the kernel's files
# of at most 1 KiB and at most 512 bytes. About 15 minutes on 2 cores.
# Usage: scripts/bench-groups.sh [large settings] [small settings] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
settings=${1:-"0,0;8192,1024;16384,2048;32768,4096;65536,8192"}
small=${2:-"0,0;1024,512;2048,256;2048,512;2048,1024;3072,512;4096,512;4096,1024;8192,512"}
rounds=${3:-2}
source scripts/bench-java.sh
python3 scripts/gen-logs.py 20000 "$data/logs"
# The kernel's tiny files, as they lie in the tree: 16,570 files of at most 1 KiB (median 468 B)
# and 9,079 of at most 512 B (median 285 B).
for max in 1024 512; do
  mkdir -p "$data/kernel-$max"
  (cd bench-data/linux-source-6.1 && find . -type f -size "-$((max + 1))c" -print0 \
    | tar --null -T - -cf -) | tar -C "$data/kernel-$max" -xf -
done
java -Xmx8g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.GroupBenchmark \
  --out bench-results/groups.jsonl --work "$work" --settings "$settings" --rounds "$rounds" \
  --tree "$data/kernel-1024" --tree "$data/logs" --tree bench-data/linux-source-6.1
java -Xmx8g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.GroupBenchmark \
  --out bench-results/groups.jsonl --work "$work" --settings "$small" --rounds "$((rounds + 1))" \
  --tree "$data/kernel-1024" --tree "$data/kernel-512"
