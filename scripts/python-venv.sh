#!/usr/bin/env bash
# Makes (once) the venv the Python package is tested and benchmarked in, with its dependencies
# and test tools from PyPI, installs ./python into it with pip (as users install it, so that its
# fsspec entry point is registered), and prints the venv's path.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
pyvenv="${HPF_PY_VENV:-$HOME/.cache/hpf/venv-python}"
ensure_venv "$pyvenv" "zstandard, lz4, xxhash, crc32c, fsspec, s3fs, pytest, pandas, pyarrow, wheel, requests, hypothesis, mypy" \
  zstandard lz4 xxhash crc32c fsspec s3fs pytest pandas pyarrow wheel setuptools requests hypothesis mypy
install_python_package "$pyvenv"
echo "$pyvenv"
