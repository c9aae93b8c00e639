#!/usr/bin/env bash
# Builds SeaweedFS's `weed` (a real S3 server, the peer of hpf serve's S3 API and the store the
# s3a:// tests write to) from the Go module proxy, once, and prints the binary's path.
# `go install` refuses the module (its go.mod has replace directives), so the module is
# downloaded, copied out of the module cache and built there. A cold build takes 10-30 minutes
# on 2 cores; the binary is kept under ~/.cache/hpf/.
set -euo pipefail
version="${HPF_SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
cache="${HPF_CACHE:-$HOME/.cache/hpf}/seaweedfs-$version"
binary="$cache/weed"
if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi
command -v go >/dev/null || {
  echo "install-seaweedfs.sh: Go is needed to build SeaweedFS (https://go.dev/doc/install)" >&2
  exit 1
}
mkdir -p "$cache"
work="$(mktemp -d "$cache/build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
echo "install-seaweedfs.sh: building SeaweedFS $version (once; 10-30 minutes cold)" >&2
# A module of our own only to download into; the module cache's copy is read-only.
(cd "$work" && go mod init hpf-seaweedfs-build >/dev/null 2>&1 &&
  GOFLAGS=-mod=mod go mod download -json "github.com/seaweedfs/seaweedfs@$version" >download.json)
source_dir="$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' "$work/download.json")"
[ -d "$source_dir" ] || {
  echo "install-seaweedfs.sh: the module proxy did not give github.com/seaweedfs/seaweedfs@$version" >&2
  exit 1
}
cp -r "$source_dir" "$work/src"
chmod -R u+w "$work/src"
(cd "$work/src" && go build -o "$work/weed" ./weed) >&2
mv "$work/weed" "$binary"
echo "$binary"
