#!/usr/bin/env bash
# The packer's zstd choices (sample budget, dictionary size, level) on the kernel tree and on
# generated logs: stored bytes of the content, training and compression time (docs/BENCHMARKS.md,
# "Codecs, groups and packing for size"). Usage: scripts/bench-dictionary.sh [settings]   (about 3 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
settings=${1:-"8,64,3;4,64,3;2,64,3;4,32,3;4,112,3;4,0,3;4,64,1;4,64,6"}
source scripts/bench-java.sh
python3 scripts/gen-logs.py 20000 "$data/logs"
java -Xmx8g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.DictionaryBenchmark \
  --out bench-results/dictionary.jsonl --settings "$settings" \
  --tree bench-data/linux-source-6.1 --tree "$data/logs"
