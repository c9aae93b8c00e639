#!/usr/bin/env bash
# The whole default test suite with the static checks (formatting, forbidden APIs, Error Prone),
# then the Python tests: PySpark (pip's pyspark, the version hpf-spark builds against) reading and
# writing archives with the built jar, the Python package (python/) reading archives without a
# JVM, and hpf serve's S3 API read by boto3, s3fs and the AWS CLI.
# Longer tests: ./scripts/test.sh -Plong. One module's tests alone: ./scripts/test.sh --quick
# [MODULE|python] [TEST] (scripts/test-quick.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --quick ]; then
  shift
  exec ./scripts/test-quick.sh "$@"
fi
command -v java >/dev/null && command -v mvn >/dev/null || ./scripts/install-build-tools.sh
# hpf mount's tests mount FUSE file systems: fuse3 (libfuse 3, fusermount3), when missing and installable
# (where this machine cannot mount, those tests say so and are skipped).
./scripts/install-fuse.sh --test-programs || echo "test.sh: FUSE could not be installed: the mount tests will be skipped"
# The s3a:// tests run against SeaweedFS (a real S3 server), built here first when it is not
# cached (once, from the Go module proxy: 4-30 minutes cold, then instant from ~/.cache/hpf), and
# required: the suite skips nothing its scripts can install (HPF_REQUIRE_S3 makes a missing binary
# a failure, not a skip; `mvn` run by hand still skips those tests where it is not built).
if [ -z "${HPF_WEED:-}" ]; then
  weed_start=$SECONDS
  ./scripts/install-seaweedfs.sh >/dev/null
  [ $((SECONDS - weed_start)) -gt 5 ] && echo "test.sh: SeaweedFS built in $((SECONDS - weed_start)) s (cached from now on)"
fi
export HPF_REQUIRE_S3=1
# How long each part took, printed at the end (Maven's reactor summary gives each module's).
times=()
timed() { # timed NAME COMMAND...: runs COMMAND, records its minutes and seconds under NAME
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  times+=("$name $(((SECONDS - start) / 60))m$(((SECONDS - start) % 60))s")
  return "$status"
}
suite_start=$SECONDS
# Two modules at a time: their tests wait on HDFS and process start-up as much as they compute.
timed "maven (every module; per module: the reactor summary above)" mvn -B -ntp -T 2 verify "$@"

# The Python package's reader and the fuzzers run beside the README's commands and the PySpark
# tests, which mostly wait on JVMs and daemons starting: the suite's budget is 8 minutes on 2
# cores. Their output follows when they end.
# - The Python package's reader, written from docs/FORMAT.md: golden archives, archives the Java
#   CLI makes here, damaged ones, its fsspec file system under pandas and pyarrow. The package is
#   installed with pip (as users install it: its fsspec entry point is tested) into a venv of its
#   own, with its dependencies from PyPI.
# - A short fuzzing session of the parsers, Java (Jazzer, 256 MiB heap) and Python (Hypothesis);
#   docs/FUZZING.md. With -Plong, five minutes of each (and Maven's ten of Java's); any time:
#   scripts/fuzz.sh SECONDS.
pyvenv="$(./scripts/python-venv.sh)"
mkdir -p target
beside=target/test-beside.log
fuzz_seconds=10
for arg in "$@"; do [ "$arg" = -Plong ] && fuzz_seconds=300; done
# - hpf serve's S3 API read by boto3, s3fs and the AWS CLI (from PyPI, in venvs of their own).
s3_clients() {
  local s3venv
  s3venv="$(./scripts/s3-clients-venv.sh)"
  HPF_AWS_CLI="$s3venv-awscli/bin/aws" "$s3venv/bin/python" -m pytest -q -p no:cacheprovider \
    hpf-server/src/test/python
}
# - The training loaders under PyTorch's DataLoader with worker processes, local and in S3, in a
#   venv of their own (torch from PyPI is large: installed once into ~/.cache/hpf).
torch_loader() {
  local torchvenv
  torchvenv="$(./scripts/torch-venv.sh)"
  PYTHONPATH=python/tests "$torchvenv/bin/python" -m pytest -q -p no:cacheprovider python/tests/loader
}
(PYTHONPATH=python/tests "$pyvenv/bin/python" -m pytest -q -p no:cacheprovider \
  --ignore=python/tests/loader python/tests && torch_loader &&
  s3_clients && ./scripts/fuzz.sh "$fuzz_seconds") >"$beside" 2>&1 &
beside_pid=$!
show_beside() {
  local status=0
  wait "$beside_pid" || status=$?
  cat "$beside"
  return "$status"
}
trap 'kill "$beside_pid" ${dist_pid:-} 2>/dev/null || true' EXIT

# The README's commands, run as written against the build (and a local HDFS of their own); then
# the binary distribution made from the build, unpacked and run with only Java.
timed "README and guides" ./scripts/test-readme.sh
# The launcher's first build as a user sees it (a stand-in for Maven; seconds).
./scripts/test-launcher.sh
# The distribution (mostly packing a tarball and starting JVMs) runs beside the PySpark tests.
./scripts/test-dist.sh >target/test-dist.log 2>&1 &
dist_pid=$!

pyspark_version="$(sed -n 's:.*<spark.version>\(.*\)</spark.version>.*:\1:p' hpf-spark/pom.xml)"
venv="${HPF_VENV:-$HOME/.cache/hpf/venv-pyspark-$pyspark_version}"
if ! "$venv/bin/python" -c 'import pyspark, pytest' 2>/dev/null; then
  echo "test.sh: installing pyspark==$pyspark_version and pytest into $venv (once)"
  python3 -m venv "$venv" &&
    "$venv/bin/pip" install -q "pyspark==$pyspark_version" pytest ||
    echo "test.sh: pip could not install pyspark==$pyspark_version here"
fi
# Tests marked long (spark-pack from HDFS to HDFS on the standalone cluster) run with -Plong.
select=(-m "not long")
for arg in "$@"; do [ "$arg" = -Plong ] && select=(); done
if "$venv/bin/python" -c 'import pyspark, pytest' 2>/dev/null; then
  timed "PySpark" "$venv/bin/python" -m pytest -q -p no:cacheprovider "${select[@]}" \
    hpf-spark/src/test/python
else
  echo "test.sh: NOT RUN: the PySpark test (pyspark could not be installed from PyPI)"
fi

show_dist() {
  local status=0
  wait "$dist_pid" || status=$?
  cat target/test-dist.log
  return "$status"
}
timed "waiting for the binary distribution's test" show_dist
timed "waiting for the Python package's and S3 clients' tests and the fuzzers" show_beside
trap - EXIT
# With -Plong: the long-running readers' soak (hpf serve and hpf mount read for ten minutes while
# archives are committed to, replaced and damaged; no wrong byte may come out).
for arg in "$@"; do
  [ "$arg" = -Plong ] && timed "soak (10 minutes)" python3 scripts/soak.py --seconds 600
done
echo "test.sh: times:"
printf '  %s\n' "${times[@]}"
echo "  all: $(((SECONDS - suite_start) / 60))m$(((SECONDS - suite_start) % 60))s"
