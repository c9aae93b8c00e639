# Sourced (from the repository's root) by the benchmark scripts that run a class of hpf-bench:
# installs the corpora, builds, copies the bench jar and its libraries into $snapshot (a rebuild
# while the benchmark runs cannot disturb it), and exports the commit the JSON lines record.
# The caller deletes $snapshot when done (its trap).
./scripts/install-corpora.sh >/dev/null
mvn -B -q -ntp package -Pquick
snapshot=$(mktemp -d)
cp -r hpf-bench/target/hpf-bench.jar hpf-bench/target/lib "$snapshot"/
mkdir -p bench-results
export HPF_COMMIT LC_ALL=C.UTF-8
HPF_COMMIT=$(git rev-parse --short HEAD)
