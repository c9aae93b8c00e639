#!/usr/bin/env bash
# Makes (once) the venvs the S3 API is tested with, from PyPI, and prints the first one's path:
# s3fs with the boto3 of the botocore it pins (s3fs's aiobotocore pins one botocore exactly), and
# the AWS CLI in a venv of its own (it pins another), whose `aws` is at <venv>-awscli/bin/aws.
set -euo pipefail
venv="${HPF_S3_VENV:-$HOME/.cache/hpf/venv-s3}"
if ! "$venv/bin/python" -c 'import boto3, s3fs, pytest' 2>/dev/null; then
  echo "s3-clients-venv.sh: installing s3fs, boto3 and pytest into $venv (once)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q s3fs pytest >&2
  botocore="$("$venv/bin/python" -c 'import botocore; print(botocore.__version__)')"
  "$venv/bin/pip" install -q "boto3==$botocore" >&2
fi
if ! "$venv-awscli/bin/aws" --version >/dev/null 2>&1; then
  echo "s3-clients-venv.sh: installing the AWS CLI into $venv-awscli (once)" >&2
  python3 -m venv "$venv-awscli"
  "$venv-awscli/bin/pip" install -q awscli >&2 || echo "s3-clients-venv.sh: the AWS CLI did not install" >&2
fi
echo "$venv"
