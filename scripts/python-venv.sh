#!/usr/bin/env bash
# Makes (once) the venv the Python package is tested and benchmarked in, with its dependencies
# and test tools from PyPI, installs ./python into it with pip (as users install it, so that its
# fsspec entry point is registered), and prints the venv's path.
set -euo pipefail
cd "$(dirname "$0")/.."
pyvenv="${HPF_PY_VENV:-$HOME/.cache/hpf/venv-python}"
if ! "$pyvenv/bin/python" -c 'import zstandard, lz4, xxhash, crc32c, fsspec, pytest, pandas, pyarrow, wheel, requests, hypothesis, s3fs, mypy' 2>/dev/null; then
  echo "python-venv.sh: installing the Python package's dependencies into $pyvenv (once)" >&2
  python3 -m venv "$pyvenv"
  "$pyvenv/bin/pip" install -q zstandard lz4 xxhash crc32c fsspec s3fs pytest pandas pyarrow wheel setuptools requests hypothesis mypy >&2
fi
. scripts/lib.sh
install_python_package "$pyvenv"
echo "$pyvenv"
