#!/usr/bin/env bash
# Makes (once) the venv the training-loader tests and benchmarks run in: PyTorch (from PyPI; its
# CUDA wheels are large, hence once, cached under ~/.cache/hpf), the peers of the loader benchmark
# (WebDataset, LitData, MosaicML streaming), Pillow for the image set, the Python package's own
# dependencies and test tools; installs ./python into it with pip and prints the venv's path.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${HPF_TORCH_VENV:-$HOME/.cache/hpf/venv-torch}"
if ! "$venv/bin/python" -c 'import torch, webdataset, litdata, streaming, PIL, zstandard, lz4, xxhash, crc32c, fsspec, s3fs, pytest, hypothesis' 2>/dev/null; then
  echo "torch-venv.sh: installing PyTorch, WebDataset, LitData, MosaicML streaming into $venv (once; a few GB)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q torch webdataset litdata mosaicml-streaming pillow zstandard lz4 xxhash \
    crc32c fsspec s3fs boto3 pytest hypothesis setuptools wheel >&2
fi
. scripts/lib.sh
install_python_package "$venv"
echo "$venv"
