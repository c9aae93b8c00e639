#!/usr/bin/env bash
# hpf, from its binary distribution (scripts/dist.sh): needs only a Java 17 runtime, found through
# JAVA_HOME or on the PATH. Every command is the CLI's (hpf --help); the read server, MapReduce
# jobs and Spark packing run as programs of their own from the jars in lib/.
set -euo pipefail
home="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if ! command -v "$java" >/dev/null; then
  echo "hpf: needs a Java 17 runtime: set JAVA_HOME or put java on the PATH" >&2
  exit 2
fi
# Java 17 decodes file names with the locale's charset; entry names are UTF-8.
case "${LC_ALL:-${LC_CTYPE:-${LANG:-}}}" in
  *UTF-8* | *utf8* | *UTF8* | *utf-8*) ;;
  *) export LC_ALL=C.UTF-8 ;;
esac
# A command is a short-lived process: C1 alone and the parallel collector; HPF_JAVA_OPTS overrides.
# shellcheck disable=SC2086
exec "$java" ${HPF_JAVA_OPTS:--XX:+UseParallelGC -XX:TieredStopAtLevel=1} \
  -cp "$home/lib/hpf.jar${HPF_CLASSPATH:+:$HPF_CLASSPATH}" io.hpf.cli.Main "$@"
