#!/usr/bin/env bash
# Installs the real small-file corpora used by benchmarks (never committed):
#   bench-data/linux-source-6.1/   the Linux kernel source tree (~78k files, 1.3 GB)
#   /usr/share/dict/words          Debian's wamerican word list
set -euo pipefail
cd "$(dirname "$0")/.."
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
need=()
[ -f /usr/src/linux-source-6.1.tar.xz ] || need+=(linux-source-6.1)
[ -f /usr/share/dict/words ] || need+=(wamerican)
if [ ${#need[@]} -gt 0 ]; then
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
mkdir -p bench-data
if [ ! -d bench-data/linux-source-6.1 ]; then
  echo "unpacking the kernel source into bench-data/ ..."
  tar -C bench-data -xJf /usr/src/linux-source-6.1.tar.xz
fi
echo "corpora ready: $(find bench-data/linux-source-6.1 -type f | wc -l) kernel files"
