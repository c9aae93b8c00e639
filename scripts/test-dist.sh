#!/usr/bin/env bash
# The binary distribution as a user installs it: scripts/dist.sh makes it from the build, it is
# unpacked in a scratch directory, and its bin/hpf packs, reads and verifies an archive there with
# no Maven and no checkout on its path (only Java); the Python wheel beside it reads that archive.
# Called by scripts/test.sh after the build; exits non-zero at the first check that fails.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$repo"
# The jars are built already: Maven's stand-in only says what quiet Maven says (colour resets),
# which must not reach dist.sh's output.
mkdir -p "$scratch/bin"
printf '#!/bin/sh\nprintf "\\033[0m\\033[0m"\n' >"$scratch/bin/mvn"
chmod +x "$scratch/bin/mvn"
made="$(PATH="$scratch/bin:$PATH" ./scripts/dist.sh 2>&1)"
if grep -q $'\033' <<<"$made"; then
  echo "test-dist.sh: dist.sh printed colour codes: $made" >&2
  exit 1
fi
echo "test-dist.sh: $made"
tarball="$(ls "$repo"/target/hpf-*.tar.gz)"
wheel="$(ls "$repo"/target/hpf_archive-*.whl)"
tar -C "$scratch" -xzf "$tarball"
home="$(echo "$scratch"/hpf-*)"
cd "$scratch"
mkdir -p tree/a/b
head -c 100000 /dev/urandom >tree/a/random.bin
for i in $(seq 1 50); do echo "line $i of a small file" >"tree/a/b/f$i.txt"; done
: >tree/empty
# Only Java and the basic tools on the path: no mvn, no checkout's ./hpf.
java_dir="$(dirname "$(readlink -f "$(command -v java)")")"
run() { env PATH="$java_dir:/usr/bin:/bin" HOME="$scratch" "$home/bin/hpf" "$@"; }
run create a.hpf tree >/dev/null
run verify a.hpf >/dev/null
[ "$(run ls a.hpf | wc -l)" = "$(find tree -type f | wc -l)" ] || {
  echo "test-dist.sh: ls lists another number of entries than the tree has files" >&2
  exit 1
}
for f in a/random.bin a/b/f7.txt empty; do
  run cat a.hpf "$f" | cmp - "tree/$f"
done
run classpath | tr ':' '\n' | grep -q '/lib/hpf-mapreduce.jar$'
run classpath --spark --s3a | grep -q '/lib/hpf-spark.jar,.*/lib/hpf-s3a.jar$'
run serve --help >/dev/null
run mount --help >/dev/null
run umount --help >/dev/null
# The mount from the distribution, where this machine can mount FUSE file systems (the test suite
# installs fuse3 where it can; hpf-mount's tests say so where it cannot).
if [ -e /dev/fuse ] && command -v fusermount3 >/dev/null && ldconfig -p 2>/dev/null | grep -q 'libfuse3\.so\.'; then
  mkdir -p mnt
  trap 'fusermount3 -u -z "$scratch/mnt" 2>/dev/null || true; rm -rf "$scratch"' EXIT
  run mount a.hpf mnt >/dev/null
  diff -r tree mnt
  run umount mnt
else
  echo "test-dist.sh: FUSE cannot mount here: the distribution's mount is not tried"
fi
if run spark-pack tree b.hpf 2>"$scratch/spark.err"; then
  echo "test-dist.sh: spark-pack ran without Spark's jars" >&2
  exit 1
fi
grep -q 'spark-submit --class io.hpf.spark.pack.SparkPackMain' "$scratch/spark.err"
# The wheel, installed with pip into a venv of its own (its dependencies from the test venv's).
pyvenv="${HPF_PY_VENV:-$HOME/.cache/hpf/venv-python}" # made by dist.sh if missing; not changed
"$pyvenv/bin/python" -m venv --system-site-packages "$scratch/venv"
"$scratch/venv/bin/pip" install -q --no-deps --no-index "$wheel"
PYTHONPATH="$(ls -d "$pyvenv"/lib/python3*/site-packages)" "$scratch/venv/bin/python" -m hpf_archive \
  cat a.hpf a/random.bin | cmp - tree/a/random.bin
echo "test-dist.sh: the distribution packed, listed, read and verified an archive (mounted it where FUSE can); the wheel read it"
