#!/usr/bin/env bash
# The local-disk benchmarks of docs/BENCHMARKS.md, in one run, writing bench-results/*.jsonl:
# perfect hash, warm random gets (kernel files of 1-8 KiB), archives that change, and create
# against tar. Then prints the tables (scripts/bench-report.py).
# Usage: scripts/bench-local.sh            (about 15 minutes on 2 cores; installs the corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-corpora.sh
. scripts/lib.sh
bench_build
bench_snapshot "$(mktemp -d)"
jar="$snapshot/hpf-bench.jar"
work=$(mktemp -d)
mkdir -p bench-results
rm -f bench-results/{perfect-hash,warm-get,change,create}.jsonl
java -Xmx4g -cp "$jar" io.hpf.bench.PerfectHashBenchmark --out bench-results/perfect-hash.jsonl --keys 65536,1000000
java -Xmx4g -cp "$jar" io.hpf.bench.GetBenchmark --out bench-results/warm-get.jsonl \
  --source bench-data/linux-source-6.1 --work "$work/get" --files 50000 --rounds 5
java -Xmx6g -cp "$jar" io.hpf.bench.ChangeBenchmark --out bench-results/change.jsonl --work "$work/change" \
  --sizes 10000,100000,1000000
rm -rf "$work"
./scripts/bench-create.sh 3
./scripts/bench-report.py
