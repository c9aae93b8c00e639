#!/usr/bin/env bash
# The S3 API's load test (docs/BENCHMARKS.md, "S3"): random GETs of one of 100,000 keys through
# hpf serve's S3 API (SigV4-presigned URLs, checked on every request), its HTTP API, SeaweedFS's S3
# gateway holding the same files, and nginx serving them as plain files, side by side in one run;
# ListObjectsV2 of every key page by page (boto3) from hpf and SeaweedFS; and writing a tree to S3
# (SeaweedFS): hpf create s3a:// against aws s3 cp --recursive.
#
#   scripts/bench-s3.sh [files] [seconds] [sizes] [reps] [dir] [upload-files]
#     files         keys per corpus (default 100000)
#     seconds       each wrk run (default 10)
#     sizes         object sizes in bytes, comma-separated (default 1024,32768)
#     reps          measured runs of each peer, taken in turn (default 3; the report takes medians)
#     dir           where corpora go (default bench-data/server, shared with bench-server.sh)
#     upload-files  files of the tree written to S3 (default 10000, 1 KiB each)
#
# wrk: 2 threads, 64 connections, uniform random keys from the list, after an unmeasured 5 s run.
# Results: JSON lines in bench-results/s3.jsonl (wrk's output in bench-results/s3-*/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/lib.sh
BENCH_ARGS="$*"
files="${1:-100000}"
seconds="${2:-10}"
sizes="${3:-1024,32768}"
reps="${4:-3}"
dir="${5:-$here/bench-data/server}"
upload_files="${6:-10000}"
out="$here/bench-results/s3-$(date -u +%Y%m%dT%H%M%SZ)"
results="$here/bench-results/s3.jsonl"
mkdir -p "$dir" "$out"
port_hpf=18580
port_nginx=18581
port_http=18582
export AWS_ACCESS_KEY_ID=HPFBENCH AWS_SECRET_ACCESS_KEY=hpf-bench-secret AWS_DEFAULT_REGION=us-east-1
for tool in wrk nginx; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    (apt-get install -y -q "$tool" || sudo apt-get install -y -q "$tool") >/dev/null
done
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
weed="$(scripts/install-seaweedfs.sh)"
venv="$(scripts/s3-clients-venv.sh)"
py="$venv/bin/python"
bench_build
echo "$AWS_ACCESS_KEY_ID $AWS_SECRET_ACCESS_KEY" >"$out/keys.txt"
pids=""
trap 'kill $pids 2>/dev/null || true; "$nginx_bin" -c "$out/nginx.conf" -p "$out" -s stop 2>/dev/null || true' EXIT

lua="$out/paths.lua"
cat >"$lua" <<'LUA'
local paths = {}
local prefix = os.getenv("WRK_PREFIX") or ""
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = prefix .. line end
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
LUA

run_wrk() { # label base-url paths-file prefix
  WRK_PATHS="$3" WRK_PREFIX="$4" wrk -t2 -c64 -d5s -s "$lua" "$2" >/dev/null 2>&1 || true
  WRK_PATHS="$3" WRK_PREFIX="$4" wrk -t2 -c64 -d"${seconds}s" --latency -s "$lua" "$2" \
    >"$out/$1.wrk" 2>&1 || true
  local rps p50 p99 errors
  rps="$(awk '/Requests\/sec/ {print $2}' "$out/$1.wrk")"
  p50="$(awk '$1=="50%" {print $2}' "$out/$1.wrk")"
  p99="$(awk '$1=="99%" {print $2}' "$out/$1.wrk")"
  errors="$(grep -E 'Non-2xx|Socket errors' "$out/$1.wrk" | tr '\n' ' ' || true)"
  json_line "$results" benchmark s3 label "$1" req_per_s "$rps" p50 "$p50" p99 "$p99" \
    errors "${errors:-none}"
}

start_weed() { # data-dir: sets weed_pid, weed_s3
  mkdir -p "$1"
  cat >"$1/s3.json" <<JSON
{"identities":[{"name":"bench","credentials":[{"accessKey":"$AWS_ACCESS_KEY_ID","secretKey":"$AWS_SECRET_ACCESS_KEY"}],"actions":["Admin","Read","Write","List"]}]}
JSON
  "$weed" server -dir="$1" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.port=19533 \
    -volume.port=19580 -filer -filer.port=19588 -s3 -s3.port=19543 -s3.port.iceberg=19544 -s3.config="$1/s3.json" \
    -master.telemetry=false -volume.max=64 >"$out/weed.log" 2>&1 &
  weed_pid=$!
  pids="$pids $weed_pid"
  weed_s3=http://127.0.0.1:19543
  wait_port 19543
  sleep 3 # the volume server and filer join the master
}

start_hpf() { # root port [args]: sets hpf_pids
  local root=$1 port=$2
  shift 2
  java -XX:+UseParallelGC -Xmx2g -cp hpf-server/target/hpf-server.jar io.hpf.server.ServeMain \
    "$root" --port "$port" --memory 4g "$@" >"$out/hpf-serve-$port.log" 2>&1 &
  hpf_pids="${hpf_pids:-} $!"
  pids="$pids $!"
  wait_port "$port"
}

start_nginx() { # root
  cat >"$out/nginx.conf" <<NGX
worker_processes 2;
pid $out/nginx.pid;
error_log $out/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  server { listen 127.0.0.1:$port_nginx; root $1; }
}
NGX
  "$nginx_bin" -c "$out/nginx.conf" -p "$out"
}

# Writing a tree to S3: files per second, hpf create s3a:// against the AWS CLI.
up_tree="$dir/upload-$upload_files"
[ -f "$up_tree.done" ] || { python3 scripts/gen-random-tree.py "$up_tree" "$upload_files" 1024 && touch "$up_tree.done"; }
start_weed "$out/weed-upload"
"$py" scripts/bench-s3-client.py upload "$weed_s3" uploads "$up_tree" -
s3a=(-D "fs.s3a.endpoint=$weed_s3" -D fs.s3a.path.style.access=true -D fs.s3a.endpoint.region=us-east-1
  -D "fs.s3a.access.key=$AWS_ACCESS_KEY_ID" -D "fs.s3a.secret.key=$AWS_SECRET_ACCESS_KEY")
# Unmeasured: SeaweedFS grows its first volumes on the first writes.
./hpf create "${s3a[@]}" s3a://uploads/warm.hpf "$up_tree" >/dev/null
"$venv-awscli/bin/aws" --endpoint-url "$weed_s3" s3 cp --recursive --quiet "$up_tree" s3://uploads/warm/
for rep in $(seq 1 "$reps"); do
  start=$(date +%s.%N)
  ./hpf create "${s3a[@]}" "s3a://uploads/hpf-$rep.hpf" "$up_tree" >/dev/null
  t=$(echo "$(date +%s.%N) - $start" | bc)
  json_line "$results" benchmark s3 label "upload-hpf-create" files "$upload_files" seconds "$t" \
    files_per_s "$(echo "$upload_files / $t" | bc)"
  start=$(date +%s.%N)
  "$venv-awscli/bin/aws" --endpoint-url "$weed_s3" s3 cp --recursive --quiet "$up_tree" "s3://uploads/plain-$rep/"
  t=$(echo "$(date +%s.%N) - $start" | bc)
  json_line "$results" benchmark s3 label "upload-aws-cli" files "$upload_files" seconds "$t" \
    files_per_s "$(echo "$upload_files / $t" | bc)"
done
kill "$weed_pid" && wait "$weed_pid" 2>/dev/null || true

IFS=',' read -r -a size_list <<<"$sizes"
for size in "${size_list[@]}"; do
  tree="$dir/files-$size-$files"
  archives="$dir/archives-$size-$files"
  [ -f "$tree.done" ] || { rm -rf "$tree" && python3 scripts/gen-random-tree.py "$tree" "$files" "$size" && touch "$tree.done"; }
  [ -d "$archives/c.hpf" ] || { mkdir -p "$archives" && ./hpf create "$archives/c.hpf" "$tree" >/dev/null; }
  rm -rf "$out/weed-$size"
  start_weed "$out/weed-$size"
  "$py" scripts/bench-s3-client.py upload "$weed_s3" corpus "$tree" "$tree.names"
  hpf_pids=""
  # With keys every request must be signed: the HTTP API is measured on a server without.
  start_hpf "$archives" "$port_hpf" --s3-keys "$out/keys.txt"
  start_hpf "$archives" "$port_http"
  "$py" scripts/bench-s3-client.py presign "http://127.0.0.1:$port_hpf" c "$tree.names" "$out/hpf-$size.paths"
  "$py" scripts/bench-s3-client.py presign "$weed_s3" corpus "$tree.names" "$out/weed-$size.paths"
  start_nginx "$tree"
  find "$tree" "$archives" -type f -print0 | xargs -0 cat >/dev/null # page cache
  for rep in $(seq 1 "$reps"); do
    run_wrk "hpf-s3-$size" "http://127.0.0.1:$port_hpf" "$out/hpf-$size.paths" ""
    run_wrk "hpf-http-$size" "http://127.0.0.1:$port_http" "$tree.names" /c/
    run_wrk "seaweedfs-s3-$size" "$weed_s3" "$out/weed-$size.paths" ""
    run_wrk "nginx-$size" "http://127.0.0.1:$port_nginx" "$tree.names" /
    for peer in hpf seaweedfs; do
      endpoint="http://127.0.0.1:$port_hpf" bucket=c
      [ "$peer" = seaweedfs ] && endpoint="$weed_s3" bucket=corpus
      read -r keys secs < <("$py" scripts/bench-s3-client.py list "$endpoint" "$bucket")
      json_line "$results" benchmark s3 label "list-$peer-$size" keys "$keys" seconds "$secs" \
        keys_per_s "$(echo "$keys / $secs" | bc)"
    done
  done
  "$nginx_bin" -c "$out/nginx.conf" -p "$out" -s stop
  kill $hpf_pids "$weed_pid" 2>/dev/null || true
  wait $hpf_pids "$weed_pid" 2>/dev/null || true
done
echo "results: $results (wrk's own output: $out)"
