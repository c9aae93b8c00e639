#!/usr/bin/env bash
# Installs what hpf mount needs from Debian's packages, if missing: libfuse 2 (which jnr-fuse
# calls) and fuse3's fusermount3 (which unmounts, and mounts for users other than root).
set -euo pipefail
missing=()
ldconfig -p 2>/dev/null | grep -q 'libfuse\.so\.2 ' || missing+=(libfuse2)
command -v fusermount3 >/dev/null || missing+=(fuse3)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  if ! command -v apt-get >/dev/null; then
    echo "install-fuse.sh: no apt-get here: install ${missing[*]} (or your system's libfuse 2 and fuse 3)" >&2
    exit 1
  fi
  echo "installing ${missing[*]}..."
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
