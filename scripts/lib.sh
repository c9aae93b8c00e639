# What the scripts share, sourced by them from the repository's root:
#   . scripts/lib.sh
# Every function works in the current directory (the repository) and exits the script on error.

# The build tools if missing, the modules built (jars and lib/), the launcher's jar, and the
# commit and locale every measurement records.
bench_build() {
  (command -v mvn >/dev/null && command -v java >/dev/null) || ./scripts/install-build-tools.sh
  mvn -B -q -ntp package -Pquick
  ./hpf --version >/dev/null # builds the launcher's jar now, not during a timed run
  export HPF_COMMIT LC_ALL=C.UTF-8
  HPF_COMMIT=$(git rev-parse --short HEAD)
}

# Copies the benchmark jar and its lib/ into DIR (made anew), so that a rebuild during a long run
# cannot change what runs; sets $snapshot to DIR.
bench_snapshot() {
  snapshot=$1
  rm -rf "$snapshot" && mkdir -p "$snapshot"
  cp -r hpf-bench/target/hpf-bench.jar hpf-bench/target/lib "$snapshot"/
}

# Starts a fresh local HDFS (NameNode and DataNode processes of `hpf hdfs`) in HOME, stopped when
# the script exits; exports HADOOP_CONF_DIR and sets $hdfs_uri. Extra arguments go to `start`.
hdfs_up() {
  hdfs_home=$1
  shift
  ./hpf hdfs stop --home "$hdfs_home" >/dev/null 2>&1 || true
  rm -rf "$hdfs_home"
  ./hpf hdfs start --home "$hdfs_home" "$@"
  trap './hpf hdfs stop --home "$hdfs_home"' EXIT
  export HADOOP_CONF_DIR="$hdfs_home/conf"
  hdfs_uri=$(./hpf hdfs status --home "$hdfs_home" --uri)
}
