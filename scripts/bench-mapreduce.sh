#!/usr/bin/env bash
# The MapReduce benchmarks of docs/BENCHMARKS.md ("MapReduce") in one run, writing
# bench-results/mapreduce.jsonl: a real HDFS (NameNode and DataNode processes, `hpf hdfs start`);
# FILES sf-text-30k files as plain files, in a HAR and in an hpf archive; map-only WordCount, Grep
# and Sort over each (plain files with TextInputFormat and with CombineTextInputFormat, HAR through
# har://, hpf with HpfInputFormat) with Hadoop's local job runner; hpf's split-size sweep; hpf://
# against har:// (recursive listing, 1,000 random reads); split computation for 100k entries.
# Usage: scripts/bench-mapreduce.sh [files] [repetitions] [work-dir] [list]
#   with "list": only hpf:// against har:// over files of about 1 KB (e.g. 100000 3 DIR list)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-5000}
repetitions=${2:-3}
work=${3:-$(mktemp -d)}
mode=${4:-}
. scripts/lib.sh
bench_build
mkdir -p "$work" bench-results
bench_snapshot "$work/bench-jar"
hdfs_up "$work/hdfs"
uri=$hdfs_uri
java -Xmx3g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.mapreduce.MapReduceBenchmark \
  --out bench-results/mapreduce.jsonl --hdfs "$uri" --files "$files" --repetitions "$repetitions" \
  --mode "${mode:-all}" 2>"$work/mapreduce.log"
