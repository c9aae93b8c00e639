#!/usr/bin/env bash
# The training-loader benchmark (issue 46; docs/BENCHMARKS.md "Training loaders"): the same JPEGs
# (COUNT, default 50,000, made reproducibly with Pillow and cached under ~/.cache/hpf) written into
# hpf by the Python writer, WebDataset tar shards, LitData and MosaicML MDS, then read through
# PyTorch's DataLoader (2 workers, batches of 64, bytes only) from local disk in order and with a
# full shuffle, and from S3 (SeaweedFS) with a full shuffle through a proxy that counts the bytes
# the server sends; and hpf resumed at half an epoch from S3. RUNS rounds, the formats alternating.
#   scripts/bench-loader.sh [COUNT] [RUNS]
# Results: bench-results/loader.jsonl (one JSON line per measurement).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
count=${1:-50000}
runs=${2:-2}
venv="$(./scripts/torch-venv.sh)"
weed="$(./scripts/install-seaweedfs.sh)"
export HPF_WEED="$weed"
proxy="$HOME/.cache/hpf/tools/countproxy"
if [ ! -x "$proxy" ]; then
  mkdir -p "$(dirname "$proxy")"
  (cd scripts/tools/countproxy && go build -o "$proxy" .)
fi
export HPF_COUNTPROXY="$proxy"
work="$HOME/.cache/hpf/bench-loader-$count"
mkdir -p "$work" bench-results
results=bench-results/loader.jsonl
commit="$(git rev-parse --short HEAD)"
torch="$("$venv/bin/python" -c 'import torch; print(torch.__version__)')"
# Each line with the machine, commit and versions, as the other benchmarks record them.
"$venv/bin/python" python/bench/bench_loader.py suite "$work" "$count" "$runs" |
  while IFS= read -r line; do
    pairs=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(" ".join(f"{k} {json.dumps(v) if not isinstance(v,(int,float)) else v}" for k,v in d.items()))' "$line")
    # shellcheck disable=SC2086
    HPF_COMMIT=$commit json_line "$results" benchmark loader torch "$torch" jdk none $pairs
  done
