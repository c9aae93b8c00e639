#!/usr/bin/env bash
# The training-loader benchmark (issue 46; docs/BENCHMARKS.md "Training loaders"): the same JPEGs
# (COUNT, default 50,000, made reproducibly with Pillow and cached under ~/.cache/hpf) written into
# hpf by the Python writer, WebDataset tar shards, LitData and MosaicML MDS, then read through
# PyTorch's DataLoader (2 workers, batches of 64, bytes only) from local disk in order and with a
# full shuffle, and from S3 (SeaweedFS) with a full shuffle through a proxy that counts the bytes
# the server sends; hpf resumed at half an epoch from S3; and the shuffled epoch through `hpf
# serve` (a batch one _mget request). RUNS rounds, the formats alternating.
#   scripts/bench-loader.sh [COUNT] [RUNS] [ONLY]    ONLY: some of write,local,s3,served
# Results: bench-results/loader.jsonl (one JSON line per measurement).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
count=${1:-50000}
runs=${2:-2}
only=${3:-write,local,s3,served}
venv="$(./scripts/torch-venv.sh)"
weed="$(./scripts/install-seaweedfs.sh)"
export HPF_WEED="$weed"
proxy="$HOME/.cache/hpf/tools/countproxy"
if [ ! -x "$proxy" ]; then
  mkdir -p "$(dirname "$proxy")"
  (cd scripts/tools/countproxy && go build -o "$proxy" .)
fi
export HPF_COUNTPROXY="$proxy" HPF_LAUNCHER="$PWD/hpf"
./hpf --version >/dev/null # built now, not while a run is timed
work="$HOME/.cache/hpf/bench-loader-$count"
mkdir -p "$work" bench-results
results=bench-results/loader.jsonl
export HPF_COMMIT
HPF_COMMIT="$(git rev-parse --short HEAD)"
# The benchmark's own code copied first: editing the checkout meanwhile changes nothing that runs
# (the package is the venv's install, made above).
cp python/bench/bench_loader.py "$work/bench_loader.py"
mkdir -p "$work/tests" && cp python/tests/seaweed.py python/tests/hpf_serve.py "$work/tests/"
BENCH_COMMAND="$0 $*" "$venv/bin/python" "$work/bench_loader.py" suite "$work" "$count" "$runs" "$only" |
  tee -a "$results"
