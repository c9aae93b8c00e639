#!/usr/bin/env bash
# The binary distribution, as Hadoop and Spark users install tools: target/hpf-VERSION.tar.gz
# (bin/hpf; lib/ with the CLI's, the read server's, the mount's, the MapReduce and the Spark jars and
# hpf-s3a.jar for clusters without S3A, their
# dependencies in lib/lib/; README and docs) runs with only a Java 17 runtime, no Maven and no
# checkout; the Python package's wheel goes beside it (target/hpf_archive-*.whl).
# Usage: scripts/dist.sh            (builds first; HPF_DIST_NO_BUILD=1 takes the jars as built)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${HPF_DIST_NO_BUILD:-}" ]; then
  (command -v mvn >/dev/null && command -v java >/dev/null) || ./scripts/install-build-tools.sh
  # Maven's quiet mode still writes colour resets (ESC[0m) through its console library: cut.
  mvn -B -q -ntp package -Pquick 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
fi
version="$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' pom.xml)"
name="hpf-$version"
stage="target/dist/$name"
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib/lib"
cp build-tools/dist-launcher.sh "$stage/bin/hpf"
chmod +x "$stage/bin/hpf"
cp hpf-cli/target/hpf.jar hpf-server/target/hpf-server.jar hpf-mount/target/hpf-mount.jar \
  hpf-mapreduce/target/hpf-mapreduce.jar hpf-spark/target/hpf-spark.jar \
  hpf-hadoop/target/hpf-s3a.jar "$stage/lib/"
# One copy of each dependency: each thin jar's manifest names its own versions in lib/.
for module in hpf-cli hpf-server hpf-mount hpf-mapreduce; do
  cp -n "$module"/target/lib/*.jar "$stage/lib/lib/"
done
cp -r README.md docs "$stage/"
tar -C target/dist -czf "target/$name.tar.gz" "$name"
# The test venv's pip builds the wheel; the venv is made first if missing, and never changed here
# (tests may be using it).
pyvenv="${HPF_PY_VENV:-$HOME/.cache/hpf/venv-python}"
[ -x "$pyvenv/bin/pip" ] || pyvenv="$(./scripts/python-venv.sh)"
rm -f target/hpf_archive-*.whl
"$pyvenv/bin/pip" wheel -q --no-deps --no-build-isolation -w target ./python >/dev/null
rm -rf python/build
echo "target/$name.tar.gz ($(du -h "target/$name.tar.gz" | cut -f1)) and $(ls target/hpf_archive-*.whl)"
