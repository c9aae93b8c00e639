#!/usr/bin/env bash
# The paper suite of docs/BENCHMARKS.md in one run: `hpf bench --suite paper` at a scale
# (default bench) on local disk and on a real HDFS (`hpf hdfs start`, in a scratch directory),
# writing bench-results/paper-SCALE-{file,hdfs}.jsonl, then the tables and the plots
# (docs/img/paper-*.png). Usage: scripts/bench-paper.sh [SCALE] [work-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-bench}
work=${2:-$(mktemp -d)}
./scripts/install-corpora.sh
(command -v mvn >/dev/null && command -v java >/dev/null) || ./scripts/install-build-tools.sh
python3 -c 'import matplotlib' 2>/dev/null || pip install -q matplotlib
./hpf --version >/dev/null # builds now, not during a measurement
export HPF_COMMIT LC_ALL=C.UTF-8
HPF_COMMIT=$(git rev-parse --short HEAD)
# A long run: the full JIT and a larger heap, not the launcher's quick-start flags.
export HPF_JAVA_OPTS="-Xmx6g -XX:+UseParallelGC"
mkdir -p bench-results "$work"
rm -f "bench-results/paper-$scale-file.jsonl" "bench-results/paper-$scale-hdfs.jsonl"
./hpf bench --suite paper --scale "$scale" --fs "file://$work/fs" --work "$work/staging" \
  --out "bench-results/paper-$scale-file.jsonl" >/dev/null
. scripts/lib.sh
hdfs_up "$work/hdfs"
./hpf bench --suite paper --scale "$scale" --fs "$hdfs_uri/b" \
  --work "$work/staging" --out "bench-results/paper-$scale-hdfs.jsonl" >/dev/null
./scripts/bench-report.py bench-results --plots docs/img
