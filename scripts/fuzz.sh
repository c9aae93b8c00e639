#!/usr/bin/env bash
# Fuzzes the parsers (docs/FUZZING.md): Java's ArchiveFuzzTest with Jazzer, in a 256 MiB heap, and
# Python's test_fuzz.py with Hypothesis, each for SECONDS (default 10; scripts/test.sh runs this
# with its default, -Plong runs and a fuzzing session give it minutes). A finding fails the run
# and is kept as a regression seed: Jazzer writes it into ArchiveFuzzTestInputs/everyParser/ (add
# it to the repository); Hypothesis prints the input to add as an @example.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
echo "fuzz: Java parsers for ${seconds} s (Jazzer, -Xmx256m)"
JAZZER_FUZZ=1 mvn -B -q -ntp -o test -pl hpf-core -Dtest=ArchiveFuzzTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dtest.heap=256m \
  -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1="-max_total_time=${seconds}" \
  -Djazzer.internal.arg.2=-timeout=10 -Djunit.jupiter.execution.timeout.mode=disabled \
  >target/fuzz-java.log 2>&1 || {
  grep -E 'Finding|Caused by|Test unit written|ERROR' target/fuzz-java.log | head -20 >&2
  echo "fuzz: Java found a failing input (target/fuzz-java.log)" >&2
  exit 1
}
grep -E '^#[0-9]+.*DONE' target/fuzz-java.log | tail -1 || true
echo "fuzz: Python parsers for ${seconds} s (Hypothesis)"
venv="$(scripts/python-venv.sh)"
HPF_FUZZ_SECONDS="$seconds" PYTHONPATH=python/tests "$venv/bin/python" -m pytest -q \
  -p no:cacheprovider python/tests/test_fuzz.py
