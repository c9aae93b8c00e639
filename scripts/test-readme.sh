#!/usr/bin/env bash
# Runs the command blocks of the README and its guides as written, so that they cannot drift from
# the tool: every ```sh block of README.md, then of the guides in GUIDES, in order, in one shell (a block's variables reach the next, as for a user
# following the page), in a scratch directory holding the trees the examples name (photos/, new/,
# logs/, a.jpg), a link to ./hpf and a copy of python/; the local HDFS of `./hpf hdfs start` has a home of its own
# there (HPF_HDFS_HOME) and is stopped at the end. Blocks after a `<!-- not run: why -->` line are left out (each
# says why and which tests cover it), and so is the README's second command, which runs this.
# Called by scripts/test.sh after the build; prints each command; exits non-zero at the first
# command that fails.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
export HPF_HDFS_HOME="$scratch/hdfs" # where ./hpf hdfs start keeps its cluster: this run's own
cleanup() {
  [ -n "${KEEP_README_OUTPUT:-}" ] && cat "$scratch/readme.out"
  (cd "$scratch" && ./hpf hdfs stop >/dev/null 2>&1) || true
  # A mount a failed command left behind (docs/MOUNT.md) goes before its directory.
  { grep -o " $scratch/[^ ]*" /proc/self/mounts 2>/dev/null || true; } | while read -r m; do
    fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

# The commands to run: the sh blocks, less those marked not run and the test command. The guides
# go in the order their commands build on each other (HADOOP.md starts the HDFS that MAPREDUCE.md
# uses).
GUIDES=(README.md docs/CLI.md docs/HADOOP.md docs/MAPREDUCE.md docs/SPARK.md docs/SERVER.md
  docs/MOUNT.md docs/PYTHON.md docs/JAVA.md)
script="$scratch/readme-commands.sh"
for page in "${GUIDES[@]}"; do
  awk '
    /^<!-- not run:/ { skip = 1; next }
    /^```sh$/ { inside = 1; next }
    /^```/ { if (inside) { skip = 0 } inside = 0; next }
    inside && !skip && $0 !~ /^\.\/scripts\/test\.sh/ { print }
  ' "$repo/$page"
done >"$script"

# What the examples name: a tree of photos, more files to add, logs with the word "error".
cd "$scratch"
ln -s "$repo/hpf" hpf
ln -s "$repo/docs" docs
cp -r "$repo/python" python # PYTHON.md installs it with pip, which builds in the project's tree
rm -rf python/build python/src/*.egg-info
mkdir -p photos/2024/01 photos/2024/02 new/2024/03 logs/2024/01 logs/2024/02
for f in photos/a.jpg photos/b.jpg photos/2024/01/cat.jpg photos/2024/01/dog.jpg \
  photos/2024/02/owl.jpg new/2024/03/fox.jpg a.jpg; do
  head -c 3000 /dev/urandom >"$f"
done
for i in 1 2 3; do
  printf 'request %s served\nan error here\nall fine\n' "$i" >"logs/2024/01/a$i.log"
  printf 'line %s\nanother err0r line\n' "$i" >"logs/2024/02/b$i.log"
done
cp logs/2024/01/a1.log logs/2024/01/a.log
# The README's first command writes /tmp/hpf-docs.hpf, replacing one an earlier run made (as a
# user running it again does): nothing is deleted first.

echo "test-readme.sh: $(grep -c . "$script") command lines from README.md and its guides, in $scratch"
# PS4 set inside: bash running as root does not take it from the environment.
{ echo "PS4='+ README: '"; echo 'set -x'; cat "$script"; } >"$script.run"
bash -euo pipefail "$script.run" >"$scratch/readme.out" 2>&1 || {
  status=$?
  tail -n 40 "$scratch/readme.out" >&2
  echo "test-readme.sh: a command of the README or a guide failed (exit $status); its output is above"
  exit 1
}
commands=$(grep -c '^+ README: ' "$scratch/readme.out" || true)
echo "test-readme.sh: $commands commands of the README and its guides ran as written"
