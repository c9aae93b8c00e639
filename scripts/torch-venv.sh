#!/usr/bin/env bash
# Makes (once) the venv the training-loader tests and benchmarks run in: PyTorch (from PyPI; its
# CUDA wheels are large, a few GB, hence once, cached under ~/.cache/hpf), the peers of the loader
# benchmark (WebDataset, LitData, MosaicML streaming), Pillow for the image set, the Python
# package's own dependencies and test tools; installs ./python into it with pip and prints the
# venv's path.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
venv="${HPF_TORCH_VENV:-$HOME/.cache/hpf/venv-torch}"
ensure_venv "$venv" "torch, webdataset, litdata, streaming, PIL, zstandard, lz4, xxhash, crc32c, fsspec, s3fs, pytest, hypothesis" \
  torch webdataset litdata mosaicml-streaming pillow zstandard lz4 xxhash crc32c fsspec s3fs boto3 \
  pytest hypothesis setuptools wheel
install_python_package "$venv"
echo "$venv"
