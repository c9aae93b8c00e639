# Sourced (from the repository's root) by the benchmark scripts that run a class of hpf-bench:
# installs the corpora, builds, copies the bench jar and its libraries into $snapshot (a rebuild
# while the benchmark runs cannot disturb it), makes $data (in memory, for inputs a benchmark
# generates) and $work (on disk, for what it writes), deletes all three on exit, and exports the
# commit the JSON lines record.
./scripts/install-corpora.sh >/dev/null
mvn -B -q -ntp package -Pquick
snapshot=$(mktemp -d)
cp -r hpf-bench/target/hpf-bench.jar hpf-bench/target/lib "$snapshot"/
mkdir -p bench-results
export HPF_COMMIT LC_ALL=C.UTF-8
HPF_COMMIT=$(git rev-parse --short HEAD)
data=$(mktemp -d -p /dev/shm)
work=$(mktemp -d)
trap 'rm -rf "$snapshot" "$data" "$work"' EXIT
