#!/usr/bin/env bash
# The HDFS benchmarks of docs/BENCHMARKS.md in one run, writing bench-results/hdfs.jsonl: a real
# HDFS (NameNode and DataNode processes, `hpf hdfs start`) in a scratch directory; for 10k
# kernel source files (3 repetitions) and 100k generated log files (1 repetition): hdfs dfs -put
# against hpf create, the HAR archive job, NameNode objects, random gets. Then prints the tables.
# Usage: scripts/bench-hdfs.sh [work-dir]     (about 40 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-corpora.sh
. scripts/lib.sh
bench_build
work=${1:-$(mktemp -d)}
mkdir -p "$work" bench-results
bench_snapshot "$work/bench-jar"
hdfs_up "$work/hdfs"
uri=$hdfs_uri

# Datasets: the first 10,000 kernel files in name order, and 100,000 generated log files.
if [ ! -d "$work/kernel-10k" ]; then
  mkdir -p "$work/kernel-10k"
  (cd bench-data/linux-source-6.1 && find . -type f | LC_ALL=C sort | awk 'NR <= 10000' |
    xargs -d '\n' cp --parents -p -t "$work/kernel-10k")
fi
[ -d "$work/logs-100k" ] || python3 scripts/gen-logs.py 100000 "$work/logs-100k"

rm -f bench-results/hdfs.jsonl
java -Xmx2g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.HdfsBenchmark \
  --out bench-results/hdfs.jsonl --hdfs "$uri" --name kernel-10k --tree "$work/kernel-10k" \
  --repetitions 3 --gets 2000
java -Xmx2g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.HdfsBenchmark \
  --out bench-results/hdfs.jsonl --hdfs "$uri" --name logs-100k --tree "$work/logs-100k" \
  --repetitions 1 --gets 2000
./scripts/bench-report.py
