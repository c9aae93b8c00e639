#!/usr/bin/env bash
# Writes over S3 (docs/BENCHMARKS.md, "Writes"): PUTs of 1 KiB and 64 KiB objects from 16
# concurrent clients into hpf serve --writable (acknowledged once committed: parts and manifest
# fsynced), SeaweedFS's S3 gateway and SeaweedFS's volume server (files PUT to assigned ids), each
# SeaweedFS side also with its fsync option; all driven by one client (scripts/put-load, Go, the
# same presigned-URL PUTs for both S3 servers), side by side in one run. Then PUT latency at a fixed
# 5,000 PUT/s, GETs of hpf with and without a write load beside, and `aws s3 sync` of a tree of
# small files into both S3 servers.
#
#   scripts/bench-writes.sh [seconds] [reps] [sync-files] [dir]
#     seconds     each closed-loop run (default 10)
#     reps        measured runs of each peer, taken in turn (default 3; the report takes medians)
#     sync-files  files of the tree aws s3 sync writes (default 10000, 1 KiB each)
#     dir         where the tree and the servers' data go (default bench-data/writes)
#
# Results: JSON lines in bench-results/writes.jsonl.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/lib.sh
BENCH_ARGS="$*"
seconds="${1:-10}"
reps="${2:-3}"
sync_files="${3:-10000}"
dir="${4:-$here/bench-data/writes}"
results="$here/bench-results/writes.jsonl"
out="$here/bench-results/writes-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$dir" "$out"
export AWS_ACCESS_KEY_ID=HPFBENCH AWS_SECRET_ACCESS_KEY=hpf-bench-secret AWS_DEFAULT_REGION=us-east-1
command -v wrk >/dev/null || (apt-get install -y -q wrk || sudo apt-get install -y -q wrk) >/dev/null
weed="$(scripts/install-seaweedfs.sh)"
venv="$(scripts/s3-clients-venv.sh)"
py="$venv/bin/python"
aws="$venv-awscli/bin/aws"
load="$HOME/.cache/hpf/put-load"
if [ ! -x "$load" ] || [ -n "$(find scripts/put-load -newer "$load" -print -quit)" ]; then
  (cd scripts/put-load && go build -o "$load" .)
fi
bench_build
pids=""
# The servers' data (tens of GB after a full run) goes with them; the generated trees are kept.
trap 'kill $pids 2>/dev/null || true; wait 2>/dev/null; rm -rf "$dir/hpf" "$dir/weed"' EXIT

# hpf: a writable server over an empty root, its readers and writers at their defaults.
rm -rf "$dir/hpf" "$dir/weed"
mkdir -p "$dir/hpf"
echo "$AWS_ACCESS_KEY_ID $AWS_SECRET_ACCESS_KEY" >"$out/keys.txt"
java -XX:+UseParallelGC -Xmx2g -cp hpf-server/target/hpf-server.jar io.hpf.server.ServeMain \
  "$dir/hpf" --port 18680 --s3-keys "$out/keys.txt" --writable >"$out/hpf.log" 2>&1 &
pids="$pids $!"
hpf_s3=http://127.0.0.1:18680
wait_port 18680

# SeaweedFS: master, volume server, filer and S3 gateway in one process, as bench-s3.sh runs it.
mkdir -p "$dir/weed"
cat >"$dir/weed/s3.json" <<JSON
{"identities":[{"name":"bench","credentials":[{"accessKey":"$AWS_ACCESS_KEY_ID","secretKey":"$AWS_SECRET_ACCESS_KEY"}],"actions":["Admin","Read","Write","List"]}]}
JSON
"$weed" server -dir="$dir/weed" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.port=19633 \
  -volume.port=19680 -filer -filer.port=19688 -s3 -s3.port=19643 -s3.port.iceberg=19644 \
  -s3.config="$dir/weed/s3.json" -master.telemetry=false -volume.max=64 >"$out/weed.log" 2>&1 &
pids="$pids $!"
weed_s3=http://127.0.0.1:19643
wait_port 19643
sleep 3 # the volume server and filer join the master
for bucket in bench1024 bench65536 sync1024 sync65536; do
  "$py" scripts/bench-s3-client.py upload "$weed_s3" "$bucket" . -
  "$py" scripts/bench-s3-client.py upload "$hpf_s3" "$bucket" . -
done
# The SeaweedFS S3 buckets whose writes are fsynced: the filer's per-path setting.
for size in 1024 65536; do
  echo "fs.configure -locationPrefix=/buckets/sync$size -fsync=true -apply" |
    "$weed" shell -master=127.0.0.1:19633 >>"$out/weed-shell.log" 2>&1
done

# One URL file per peer and size: presigned PUTs of distinct keys (S3), or assigned file ids.
urls() { # peer size -> file
  local f="$out/urls-$1-$2"
  if [ ! -f "$f" ]; then
    case "$1" in
      hpf) "$py" scripts/bench-s3-client.py presign-put "$hpf_s3" "bench$2" 200000 "$f" ;;
      hpf-sync) "$py" scripts/bench-s3-client.py presign-put "$hpf_s3" "sync$2" 200000 "$f" ;;
      seaweedfs-s3) "$py" scripts/bench-s3-client.py presign-put "$weed_s3" "bench$2" 200000 "$f" ;;
      seaweedfs-s3-fsync) "$py" scripts/bench-s3-client.py presign-put "$weed_s3" "sync$2" 200000 "$f" ;;
      seaweedfs-volume | seaweedfs-volume-fsync)
        local q=""
        [ "$1" = seaweedfs-volume-fsync ] && q="?fsync=true"
        python3 - "$f" "$q" <<'PY'
import json, sys, urllib.request
out, query = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    for _ in range(20):  # 20 assignments of 10,000 ids each
        a = json.load(urllib.request.urlopen("http://127.0.0.1:19633/dir/assign?count=10000"))
        base = f"http://{a['url']}/{a['fid']}"
        f.write(base + query + "\n")
        for i in range(1, a["count"]):
            f.write(f"{base}_{i}{query}\n")
PY
        ;;
    esac
  fi
  echo "$f"
}

peers="hpf seaweedfs-s3 seaweedfs-s3-fsync seaweedfs-volume seaweedfs-volume-fsync"
for size in 1024 65536; do
  for peer in $peers; do # unmeasured: volumes grow, JITs warm
    "$load" -urls "$(urls "$peer" "$size")" -c 16 -d 3s -size "$size" >/dev/null
  done
  for rep in $(seq 1 "$reps"); do
    for peer in $peers; do
      # Each run writes keys no run wrote before (but the volume server's, faster than the URLs).
      r="$("$load" -urls "$(urls "$peer" "$size")" -c 16 -d "${seconds}s" -size "$size" \
        -offset $((20000 + rep * 50000)))"
      json_line "$results" benchmark writes label "put-$peer-$size" clients 16 size "$size" \
        $(echo "$r" | python3 -c 'import json,sys; print(" ".join(f"{k} {v}" for k,v in json.load(sys.stdin).items()))')
    done
  done
done

# Latency at a fixed rate: 5,000 PUT/s of 1 KiB from 64 connections, open loop.
for rep in $(seq 1 "$reps"); do
  for peer in hpf-sync seaweedfs-s3; do
    r="$("$load" -urls "$(urls "$peer" 1024)" -c 64 -d "${seconds}s" -size 1024 -rate 5000 \
      -offset $((rep * 60000)))"
    json_line "$results" benchmark writes label "put-rate5000-$peer-1024" clients 64 size 1024 \
      $(echo "$r" | python3 -c 'import json,sys; print(" ".join(f"{k} {v}" for k,v in json.load(sys.stdin).items()))')
  done
done

# Reads beside writes: wrk GETs of 1 KiB objects of hpf (presigned, 2 threads, 64 connections)
# alone, then with 2,000 PUT/s of 1 KiB going into another archive of the same server.
tree="$dir/read-tree"
[ -f "$tree.done" ] || { rm -rf "$tree" && python3 scripts/gen-random-tree.py "$tree" 20000 1024 && touch "$tree.done"; }
[ -d "$dir/hpf/reads.hpf" ] || ./hpf create "$dir/hpf/reads.hpf" "$tree" >/dev/null
"$py" scripts/bench-s3-client.py presign "$hpf_s3" reads "$tree.names" "$out/reads.paths"
cat >"$out/paths.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
math.randomseed(os.time())
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
LUA
WRK_PATHS="$out/reads.paths" wrk -t2 -c64 -d3s -s "$out/paths.lua" "$hpf_s3" >/dev/null 2>&1 || true
for rep in $(seq 1 "$reps"); do
  for beside in none puts; do
    load_pid=""
    if [ "$beside" = puts ]; then
      "$load" -urls "$(urls hpf 1024)" -c 16 -d "$((seconds + 2))s" -size 1024 -rate 2000 \
        -offset $((rep * 30000)) >"$out/beside-$rep.json" &
      load_pid=$!
      sleep 1
    fi
    WRK_PATHS="$out/reads.paths" wrk -t2 -c64 -d"${seconds}s" --latency -s "$out/paths.lua" "$hpf_s3" \
      >"$out/reads-$beside-$rep.wrk" 2>&1 || true
    [ -z "$load_pid" ] || wait "$load_pid"
    json_line "$results" benchmark writes label "get-beside-$beside" \
      req_per_s "$(awk '/Requests\/sec/ {print $2}' "$out/reads-$beside-$rep.wrk")" \
      p99 "$(awk '$1=="99%" {print $2}' "$out/reads-$beside-$rep.wrk")"
  done
done

# aws s3 sync of a tree of small files into each S3 server (new keys each time).
stree="$dir/sync-tree-$sync_files"
[ -f "$stree.done" ] || { rm -rf "$stree" && python3 scripts/gen-random-tree.py "$stree" "$sync_files" 1024 && touch "$stree.done"; }
for rep in $(seq 1 "$reps"); do
  for peer in hpf seaweedfs; do
    endpoint="$hpf_s3"
    [ "$peer" = seaweedfs ] && endpoint="$weed_s3"
    start=$(date +%s.%N)
    "$aws" --endpoint-url "$endpoint" s3 sync --quiet "$stree" "s3://bench1024/sync-$rep/"
    t=$(echo "$(date +%s.%N) - $start" | bc)
    json_line "$results" benchmark writes label "aws-sync-$peer" files "$sync_files" seconds "$t" \
      files_per_s "$(echo "$sync_files / $t" | bc)"
  done
done
./hpf verify "$dir/hpf/bench1024.hpf" >/dev/null # before the exit removes the servers' data
echo "results: $results (logs: $out)"
