#!/usr/bin/env bash
# The Python package's reads against their peers, side by side in one process (docs/BENCHMARKS.md,
# "Python"): warm random gets of 4 KB entries (hpf, open/read/close of plain files, zipfile
# STORED, sqlite3 blobs in an sqlar table), a listing of every name, and the time to open
# archives of 10k, 100k and 1M entries (against zipfile's open of the same entries).
# Usage: scripts/bench-python.sh [entries] [gets] [reps]     (defaults 100000 50000 7; ~10 min)
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-100000}
gets=${2:-50000}
reps=${3:-7}
./hpf --version >/dev/null # build first
pyvenv="$(./scripts/python-venv.sh)"
py="$pyvenv/bin/python"
mkdir -p bench-data bench-results
work=$(mktemp -d -p "$PWD/bench-data" python.XXXX)
shm=$(mktemp -d -p /dev/shm)
trap 'rm -rf "$work" "$shm"' EXIT

"$py" python/bench/make_peers.py "$work" "$entries" 4096
./hpf create --codec none "$work/a.hpf" "$work/src" >/dev/null
for n in 10000 100000 1000000; do # tiny files in tmpfs, only long enough to pack them
  "$py" python/bench/make_peers.py "$shm/open-$n" "$n" 64 --tiny
  ./hpf create --codec none "$work/open-$n.hpf" "$shm/open-$n/src" >/dev/null
  mv "$shm/open-$n.zip" "$work/open-$n.zip"
  rm -rf "$shm/open-$n"
done
sync
out=bench-results/python-reads.jsonl
"$py" python/bench/bench_reads.py "$work" "$gets" "$reps" | tee "$out"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores;" \
  "commit $(git describe --always --dirty --abbrev=12); results in $out"
