#!/usr/bin/env bash
# The engines' figures of the scale benchmark (docs/BENCHMARKS.md, "Scale"; issue 32) over an
# archive `hpf bench scale --entries N --keep --dir DIR` made: Spark local[2] count() of every entry
# and a lookup of 1,000 names (contents read), and `hpf serve`'s _mget of the same 1,000 names
# (curl, the whole response read), each repeated; the first and the median of the rest.
# Appends one JSON line to bench-results/scale.jsonl.
#
#   scripts/bench-scale-engines.sh ARCHIVE ENTRIES [repetitions]
#     ARCHIVE  the archive directory (DIR/scale.hpf; `hpf serve` serves DIR, whose name must not
#              end in .hpf, as the archive "scale")
#     ENTRIES  the N it was made with (the names looked up are drawn from its generator)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/lib.sh"
BENCH_ARGS="$*"
archive="$(cd "$1" && pwd)"
entries="$2"
reps="${3:-5}"
export HPF_COMMIT="${HPF_COMMIT:-$(cd "$here" && git rev-parse --short HEAD)}"
work="$(mktemp -d)"
trap 'kill "${serve_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
"$here/hpf" --version >/dev/null # builds on first use
# hpf-spark's test classes (the benchmark) against the modules installed from this tree.
(cd "$here" && mvn -B -q -ntp install -Pquick &&
  mvn -B -q -ntp test-compile -pl hpf-spark &&
  mvn -B -q -ntp dependency:build-classpath -pl hpf-spark -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/spark.classpath") >/dev/null
java -cp "$here/hpf-cli/target/hpf.jar:$here/hpf-bench/target/hpf-bench.jar" \
  io.hpf.bench.scale.ScaleRun names "$archive" "$entries" 1000 >"$work/names.txt"

echo "bench-scale-engines: Spark count() and lookups, $reps each..." >&2
# shellcheck disable=SC2046
spark="$(java -Xmx8g $(cat "$here/build-tools/spark-jvm-options") \
  -Dlog4j2.configurationFile="$here/hpf-spark/src/main/resources/hpf-spark-log4j2.properties" \
  -cp "$here/hpf-spark/target/test-classes:$here/hpf-spark/target/classes:$(cat "$work/spark.classpath")" \
  io.hpf.spark.bench.SparkScaleBenchmark "file://$archive" "$work/names.txt" "$reps" 2>"$work/spark.log" |
  tail -1)" || { cat "$work/spark.log" >&2; exit 1; }

echo "bench-scale-engines: hpf serve _mget, $reps..." >&2
port=18490
java -XX:+UseParallelGC -Xmx2g -cp "$here/hpf-server/target/hpf-server.jar" io.hpf.server.ServeMain \
  "$(dirname "$archive")" --bind 127.0.0.1 --port "$port" >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/_health" >/dev/null 2>&1 && break
  sleep 0.2
done
mget=()
for _ in $(seq 1 "$reps"); do
  mget+=("$(curl -sf -o "$work/mget.out" -w '%{time_total}' --data-binary @"$work/names.txt" \
    "http://127.0.0.1:$port/$(basename "$archive" .hpf)/_mget")")
done
found="$(grep -a -c '^200 ' "$work/mget.out" || true)"
first="${mget[0]}"
median="$(printf '%s\n' "${mget[@]:1}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
# shellcheck disable=SC2086
json_line "$here/bench-results/scale.jsonl" benchmark scale-engines archive "$archive" \
  $(echo "$spark" | tr ' =' '\n\n') mget_names 1000 mget_found "$found" \
  mget_first_s "$first" mget_s "${median:-$first}"
