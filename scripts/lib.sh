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

# Waits (up to a minute) until something listens on 127.0.0.1:PORT; exits the script if nothing does.
wait_port() { # port
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.2
  done
  echo "nothing listens on port $1" >&2
  exit 1
}

# Appends one measurement to FILE as a JSON line, as the Java benchmarks write them: the given keys
# and values (numbers stay numbers), then the machine, commit, command and time.
#   json_line FILE key value [key value]...
json_line() {
  local file=$1
  shift
  python3 - "$file" "$0 ${BENCH_ARGS:-}" "$@" <<'PY' | tee -a "$file"
import json, os, platform, subprocess, sys, datetime
file, command, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
def value(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v
line = {pairs[i]: value(pairs[i + 1]) for i in range(0, len(pairs) - 1, 2)}
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
commit = os.environ.get("HPF_COMMIT") or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "unknown"
if "jdk" not in line:
    try:
        said = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
        line["jdk"] = said[0] if said else "unknown"
    except OSError:
        line["jdk"] = "unknown"
line.update(command=command.strip(), machine=model, cores=os.cpu_count(), commit=commit,
            time=datetime.datetime.now(datetime.timezone.utc).isoformat())
print(json.dumps(line))
PY
}

# A tree of N tiny files (1 to 200 bytes) in directories of 1,000.
tiny_tree() { # tiny_tree DIR N
  python3 - "$1" "$2" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
for i in range(n):
    d = os.path.join(root, "d%04d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%07d.txt" % i), "wb") as f:
        f.write(("line %d " % i).encode() * rnd.randint(1, 20))
PY
}

# Installs ./python into the venv VENV as users install it (pip), from a copy: pip builds a local
# project in its tree, and two venvs may be made at once.
install_python_package() { # VENV
  local copy
  copy="$(mktemp -d)"
  cp -r python "$copy/" && rm -rf "$copy/python/build" "$copy"/python/src/*.egg-info
  "$1/bin/pip" install -q --no-deps --no-build-isolation --force-reinstall "$copy/python" >&2
  rm -rf "$copy"
}

# Makes the venv VENV with PACKAGES from PyPI, once: unless its Python imports IMPORTS already.
ensure_venv() { # VENV "a, b" PACKAGE...
  local venv=$1 imports=$2
  shift 2
  if ! "$venv/bin/python" -c "import $imports" 2>/dev/null; then
    echo "$(basename "$0"): installing $* into $venv (once)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "$@" >&2
  fi
}
