#!/usr/bin/env bash
# The read server's load test (docs/BENCHMARKS.md, "The read server"): wrk against `hpf serve` and
# nginx serving the same files as plain files, side by side in one run, from page cache.
#
#   scripts/bench-server.sh [files] [seconds] [sizes] [reps] [dir]
#     files    entries per corpus (default 100000)
#     seconds  each wrk run (default 30)
#     sizes    entry sizes in bytes, comma-separated (default 1024,32768)
#     reps     measured runs of each peer, taken in turn (default 3; the report takes medians)
#     dir      where corpora go (default bench-data/server)
#
# Each size: a tree of random files (d000/…/f…bin), the same tree packed by `hpf create`; wrk
# (2 threads, 64 connections) asks for uniform random names from the list. Peers: hpf serve;
# nginx with sendfile; nginx with open_file_cache (16,000 descriptors per worker: the machine
# allows 20,000 open files per process, so the cache holds a sixth of 100k files). Each peer is
# started afresh for each rep and warmed up by an unmeasured 10 s run. Then Zipf names (s = 1.1) over 1,000 archives of 100 entries
# with --memory too small for all of them, against the same run with unlimited memory: req/s and
# the hit rate of open readers. Results: JSON lines in bench-results/server.jsonl (wrk's output in
# bench-results/server-*/).
#
# HPF_BASELINE_JAR=path/hpf-server.jar adds another build of the server as a peer (label
# hpf-baseline-SIZE), taking its turn beside the others: a change measured against the code before
# it in one run. HPF_BENCH_ZIPF=0 leaves out the Zipf part.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/lib.sh"
BENCH_ARGS="$*"
export HPF_COMMIT="${HPF_COMMIT:-$(cd "$here" && git rev-parse --short HEAD)}"
files="${1:-100000}"
seconds="${2:-30}"
sizes="${3:-1024,32768}"
reps="${4:-3}"
dir="${5:-$here/bench-data/server}"
out="$here/bench-results/server-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$dir" "$out"
port_hpf=18480
port_nginx=18481
server_pids=""

for tool in wrk nginx; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "installing $tool (Debian package)" >&2
    (apt-get install -y -q "$tool" || sudo apt-get install -y -q "$tool") >/dev/null
  fi
done
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
"$here/hpf" --version >/dev/null # builds on first use
(cd "$here" && mvn -B -q -ntp package -Pquick -pl hpf-server -am) >/dev/null

# The corpus: random bytes (as images or compressed logs are: hpf stores them raw).
make_tree() { # size
  local tree="$dir/files-$1-$files"
  if [ ! -f "$tree.done" ]; then
    rm -rf "$tree"
    python3 "$here/scripts/gen-random-tree.py" "$tree" "$files" "$1"
    touch "$tree.done"
  fi
  if [ ! -d "$dir/archives-$1-$files/c.hpf" ]; then
    mkdir -p "$dir/archives-$1-$files"
    "$here/hpf" create "$dir/archives-$1-$files/c.hpf" "$tree" >/dev/null
  fi
}

# wrk's script: uniform random names from a list (read once per thread).
lua="$out/random-names.lua"
cat >"$lua" <<'LUA'
local names = {}
local prefix = os.getenv("WRK_PREFIX") or "/"
for line in io.lines(os.getenv("WRK_NAMES")) do names[#names + 1] = prefix .. line end
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
request = function()
  return wrk.format("GET", names[math.random(#names)])
end
LUA

# CPU time (clock ticks) the server's processes have used so far, all threads.
server_ticks() {
  local t=0 task
  local -a f
  for p in $server_pids; do
    for task in /proc/"$p"/task/*; do
      read -r -a f <"$task/stat" 2>/dev/null || continue
      t=$((t + f[13] + f[14]))
    done
  done
  echo "$t"
}
hz="$(getconf CLK_TCK)"

run_wrk() { # label url-base names-file prefix [seconds]
  local label="$1" before after
  before="$(server_ticks)"
  WRK_NAMES="$3" WRK_PREFIX="$4" wrk -t2 -c64 -d"${5:-$seconds}s" --latency -s "$lua" "$2" \
    >"$out/$label.wrk" 2>&1 || true
  after="$(server_ticks)"
  local rps p50 p99 errors cpu
  rps="$(awk '/Requests\/sec/ {print $2}' "$out/$label.wrk")"
  p50="$(awk '$1=="50%" {print $2}' "$out/$label.wrk")"
  p99="$(awk '$1=="99%" {print $2}' "$out/$label.wrk")"
  errors="$(grep -E 'Non-2xx|Socket errors' "$out/$label.wrk" | tr '\n' ' ' || true)"
  # The server's CPU per request: steadier than req/s on a shared machine.
  cpu="$(python3 -c "print(round(($after-$before)/$hz*1e6/max(1,$rps*${5:-$seconds}),1))")"
  json_line "$results" benchmark server label "$label" req_per_s "$rps" p50 "$p50" p99 "$p99" \
    cpu_us_per_req "$cpu" errors "${errors:-none}"
}

start_hpf() { # root extra-args...
  local root="$1"
  shift
  java -XX:+UseParallelGC -Xmx2g -cp "${server_jar:-$here/hpf-server/target/hpf-server.jar}" io.hpf.server.ServeMain \
    "$root" --bind 127.0.0.1 --port "$port_hpf" "$@" >"$out/hpf-serve.log" 2>&1 &
  hpf_pid=$!
  server_pids="$hpf_pid"
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port_hpf/_health" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "hpf serve did not start" >&2
  cat "$out/hpf-serve.log" >&2
  exit 1
}

stop_hpf() {
  kill "$hpf_pid" 2>/dev/null || true
  wait "$hpf_pid" 2>/dev/null || true
}

start_nginx() { # root cache(on|off)
  local conf="$out/nginx.conf"
  local cache=""
  [ "$2" = on ] && cache="open_file_cache max=16000 inactive=120s; open_file_cache_valid 120s;"
  cat >"$conf" <<NGX
worker_processes 2;
worker_rlimit_nofile 20000;
pid $out/nginx.pid;
error_log $out/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  keepalive_timeout 120s;
  default_type application/octet-stream;
  $cache
  server {
    listen 127.0.0.1:$port_nginx;
    root $1;
  }
}
NGX
  "$nginx_bin" -c "$conf" -p "$out"
  sleep 1
  server_pids="$(pgrep -f "nginx: worker process" | tr '\n' ' ')"
}

stop_nginx() {
  "$nginx_bin" -c "$out/nginx.conf" -p "$out" -s stop 2>/dev/null || true
  sleep 1
}

warm() { # tree: into page cache
  find "$1" -type f -print0 | xargs -0 cat >/dev/null
}

results="$here/bench-results/server.jsonl" # one JSON line a run, as every benchmark writes
IFS=',' read -r -a size_list <<<"$sizes"
for size in "${size_list[@]}"; do
  make_tree "$size"
  tree="$dir/files-$size-$files"
  archives="$dir/archives-$size-$files"
  warm "$tree"
  warm "$archives"
  # The peers take turns, rep by rep, so that the machine's noise falls on all of them.
  for rep in $(seq 1 "$reps"); do
    start_hpf "$archives" --memory 4g
    run_wrk "hpf-$size-warmup" "http://127.0.0.1:$port_hpf" "$tree.names" /c/ 10 >/dev/null
    run_wrk "hpf-$size" "http://127.0.0.1:$port_hpf" "$tree.names" /c/
    stop_hpf
    if [ -n "${HPF_BASELINE_JAR:-}" ]; then
      server_jar="$HPF_BASELINE_JAR" start_hpf "$archives" --memory 4g
      run_wrk "hpf-baseline-$size-warmup" "http://127.0.0.1:$port_hpf" "$tree.names" /c/ 10 >/dev/null
      run_wrk "hpf-baseline-$size" "http://127.0.0.1:$port_hpf" "$tree.names" /c/
      stop_hpf
    fi
    start_nginx "$tree" off
    run_wrk "nginx-$size-warmup" "http://127.0.0.1:$port_nginx" "$tree.names" / 10 >/dev/null
    run_wrk "nginx-$size" "http://127.0.0.1:$port_nginx" "$tree.names" /
    stop_nginx
    start_nginx "$tree" on
    run_wrk "nginx-cache-$size-warmup" "http://127.0.0.1:$port_nginx" "$tree.names" / 10 >/dev/null
    run_wrk "nginx-cache-$size" "http://127.0.0.1:$port_nginx" "$tree.names" /
    stop_nginx
  done
done

if [ "${HPF_BENCH_ZIPF:-1}" = 0 ]; then
  echo "results: $results (wrk's own output: $out)"
  exit 0
fi
# Zipf popularity over 1,000 archives: readers kept by popularity within a small budget.
zipf="$dir/zipf-1000"
if [ ! -f "$zipf.done" ]; then
  rm -rf "$zipf" "$zipf-src"
  python3 - "$zipf-src" <<'PY'
import os, sys, random
root = sys.argv[1]
rnd = random.Random(5)
for a in range(1000):
    d = os.path.join(root, "a%04d" % a)
    os.makedirs(d)
    for f in range(100):
        with open(os.path.join(d, "f%03d.bin" % f), "wb") as out:
            out.write(rnd.randbytes(1024))
PY
  mkdir -p "$zipf"
  ls "$zipf-src" | xargs -P 2 -I{} "$here/hpf" create "$zipf/{}.hpf" "$zipf-src/{}" >/dev/null
  touch "$zipf.done"
fi
warm "$zipf"
zlua="$out/zipf-names.lua"
cat >"$zlua" <<'LUA'
local n, s = 1000, 1.1
local cumulative, sum = {}, 0
for i = 1, n do sum = sum + 1 / (i ^ s); cumulative[i] = sum end
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
request = function()
  local u, lo, hi = math.random() * sum, 1, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cumulative[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format("GET", string.format("/a%04d/f%03d.bin", lo - 1, math.random(0, 99)))
end
LUA
hits() { # the readers' hits and misses so far
  curl -s "http://127.0.0.1:$port_hpf/_metrics" |
    awk '/^hpf_reader_hits_total/ {h=$2} /^hpf_reader_misses_total/ {m=$2} END {print h, m}'
}
for memory in 4m 64g; do
  start_hpf "$zipf" --memory "$memory" --hot-k 64
  wrk -t2 -c64 -d10s -s "$zlua" "http://127.0.0.1:$port_hpf" >/dev/null 2>&1 || true
  read -r h0 m0 < <(hits)
  wrk -t2 -c64 -d"${seconds}s" --latency -s "$zlua" "http://127.0.0.1:$port_hpf" >"$out/zipf-$memory.wrk" 2>&1 || true
  read -r h1 m1 < <(hits)
  rps="$(awk '/Requests\/sec/ {print $2}' "$out/zipf-$memory.wrk")"
  p99="$(awk '$1=="99%" {print $2}' "$out/zipf-$memory.wrk")"
  rate="$(python3 -c "print(round(($h1-$h0)/max(1,($h1-$h0)+($m1-$m0)),4))")"
  json_line "$results" benchmark server label "zipf-memory-$memory" req_per_s "$rps" \
    reader_hit_rate "$rate" p99 "$p99"
  stop_hpf
done
echo "results: $results (wrk's own output: $out)"
