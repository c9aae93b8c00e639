#!/usr/bin/env bash
# The Spark benchmarks of docs/BENCHMARKS.md ("Spark") in one run, appending to
# bench-results/spark.jsonl: a real HDFS (NameNode and DataNode processes, `hpf hdfs start`);
# FILES files of about 4 KB (CORPUS: "logs", generated, or "kernel", the Linux sources from
# scripts/install-corpora.sh) as plain files and as an archive; Spark local[2] reading them four
# ways (hpf, binaryFile, wholeTextFiles, sc.binaryFiles) for total bytes, a WordCount, a count by
# prefix and 1,000 lookups (and, for hpf, the same lookups read by tasks); hpf spark-pack against
# hpf create from one client.
# Usage: scripts/bench-spark.sh [files] [repetitions] [corpus] [work-dir] [systems]
#   systems: a comma-separated subset of binaryFile,wholeTextFiles,sc.binaryFiles (hpf always)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
repetitions=${2:-3}
corpus=${3:-logs}
work=${4:-$(mktemp -d)}
systems=${5:-hpf,binaryFile,wholeTextFiles,sc.binaryFiles}
[ "$corpus" = kernel ] && corpus="$PWD/bench-data/linux-source-6.1"
(command -v mvn >/dev/null && command -v java >/dev/null) || ./scripts/install-build-tools.sh
mvn -B -q -ntp install -Pquick
mvn -B -q -ntp test-compile -pl hpf-spark
mvn -B -q -ntp dependency:build-classpath -pl hpf-spark -Dmdep.includeScope=test \
  -Dmdep.outputFile="$work/spark-test.classpath"
export HPF_COMMIT LC_ALL=C.UTF-8
HPF_COMMIT=$(git rev-parse --short HEAD)
mkdir -p "$work" bench-results
. scripts/lib.sh
hdfs_up "$work/hdfs"
uri=$hdfs_uri
# shellcheck disable=SC2046
java -Xmx4g $(cat build-tools/spark-jvm-options) \
  -Dlog4j2.configurationFile="$PWD/hpf-spark/src/main/resources/hpf-spark-log4j2.properties" \
  -cp "hpf-spark/target/test-classes:hpf-spark/target/classes:$(cat "$work/spark-test.classpath")" \
  io.hpf.spark.bench.SparkBenchmark bench-results/spark.jsonl "$uri" "$corpus" "$files" "$repetitions" "$systems" \
  2>"$work/spark.log"
echo "log: $work/spark.log"
