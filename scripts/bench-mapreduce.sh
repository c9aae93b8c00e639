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
(command -v mvn >/dev/null && command -v java >/dev/null) || ./scripts/install-build-tools.sh
mvn -B -q -ntp package -Pquick
export HPF_COMMIT LC_ALL=C.UTF-8
HPF_COMMIT=$(git rev-parse --short HEAD)
mkdir -p "$work" bench-results
snapshot="$work/bench-jar"
rm -rf "$snapshot" && mkdir -p "$snapshot"
cp -r hpf-bench/target/hpf-bench.jar hpf-bench/target/lib "$snapshot"/
home="$work/hdfs"
./hpf hdfs stop --home "$home" >/dev/null 2>&1 || true
rm -rf "$home"
./hpf hdfs start --home "$home"
trap './hpf hdfs stop --home "$home"' EXIT
export HADOOP_CONF_DIR="$home/conf"
uri=$(./hpf hdfs status --home "$home" --uri)
java -Xmx3g -cp "$snapshot/hpf-bench.jar" io.hpf.bench.mapreduce.MapReduceBenchmark \
  bench-results/mapreduce.jsonl "$uri" "$files" "$repetitions" $mode 2>"$work/mapreduce.log"
