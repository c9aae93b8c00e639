#!/usr/bin/env bash
# Cold gets by codec (docs/BENCHMARKS.md, "One-shot commands, cold gets, shared readers"): a new reader per get against a
# plain open-read-close and a kept reader's get, for the paper suite's kinds of small files packed
# with zstd, LZ4 (hpf create's default) and no compression: 2,000 generated logs, 300 texts of
# 30 KB of dictionary words, 2,000 kernel files. About 3 minutes on 2 cores.
# Usage: scripts/bench-cold.sh [rounds] [gets per round]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
gets=${2:-3000}
source scripts/bench-java.sh
python3 scripts/gen-logs.py 2000 "$data/logs"
python3 - "$data/text-30k" <<'PY'
import os, random, sys
words = [w.strip() for w in open("/usr/share/dict/words") if w.strip().isalpha()]
rng = random.Random(2026)
for i in range(300):
    d = os.path.join(sys.argv[1], "d%02d" % (i % 10))
    os.makedirs(d, exist_ok=True)
    out, n = [], 0
    while n < 30000:
        w = rng.choice(words)
        out.append(w)
        n += len(w) + 1
    with open(os.path.join(d, "t%04d.txt" % i), "w") as f:
        f.write(" ".join(out))
PY
mkdir -p "$data/kernel"
(cd bench-data/linux-source-6.1 && find . -type f | sort | awk 'NR <= 2000' | tar -T - -cf -) \
  | tar -C "$data/kernel" -xf -
java -Xmx4g -XX:+UseParallelGC -cp "$snapshot/hpf-bench.jar" io.hpf.bench.ColdGetBenchmark \
  --out bench-results/cold-gets.jsonl --work "$work" --rounds "$rounds" --gets "$gets" \
  --tree "$data/logs" --tree "$data/text-30k" --tree "$data/kernel"
