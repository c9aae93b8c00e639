#!/usr/bin/env bash
# Installs what hpf mount needs from Debian's packages, if missing: fuse3, which brings libfuse 3
# (whose mount calls hpf makes) and fusermount3 (which unmounts, and mounts for users other than
# root). With --test-programs, also the programs the writable mount's tests run through it: rsync,
# git, zip and unzip.
set -euo pipefail
missing=()
if ! ldconfig -p 2>/dev/null | grep -q 'libfuse3\.so\.' || ! command -v fusermount3 >/dev/null; then
  missing+=(fuse3)
fi
if [ "${1:-}" = "--test-programs" ]; then
  for program in rsync git zip unzip; do
    command -v "$program" >/dev/null || missing+=("$program")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  if ! command -v apt-get >/dev/null; then
    echo "install-fuse.sh: no apt-get here: install ${missing[*]} (your system's libfuse 3 and fusermount3)" >&2
    exit 1
  fi
  echo "installing ${missing[*]}..."
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
