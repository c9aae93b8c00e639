#!/usr/bin/env bash
# The inner loop: one module's tests, without the static checks and the rest of the suite.
#   ./scripts/test.sh --quick                      hpf-core's tests (about a minute)
#   ./scripts/test.sh --quick hpf-server           another module's (what it needs is built first)
#   ./scripts/test.sh --quick hpf-core 'LiveArchiveTest#aWritersCommit*'    one class or method
#   ./scripts/test.sh --quick python [PYTEST ARGS] the Python package's tests, from python/src
# Formatting before a commit: mvn -q spotless:apply. The whole suite: ./scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
module="${1:-hpf-core}"
[ $# -gt 0 ] && shift
if [ "$module" = python ]; then
  pyvenv="$(./scripts/python-venv.sh)"
  [ $# -gt 0 ] || set -- --ignore=python/tests/loader python/tests
  PYTHONPATH=python/src:python/tests exec "$pyvenv/bin/python" -m pytest -q -x -p no:cacheprovider "$@"
fi
if [ ! -d "$module" ]; then
  echo "test.sh --quick: no module '$module' (hpf-core, hpf-hadoop, ..., or python)" >&2
  exit 2
fi
command -v java >/dev/null && command -v mvn >/dev/null || ./scripts/install-build-tools.sh
mvn -B -ntp -q install -pl "$module" -am -DskipTests -Dspotless.check.skip=true
tests=()
[ $# -gt 0 ] && tests=("-Dtest=$1" -Dsurefire.failIfNoSpecifiedTests=false)
set +e +o pipefail  # Maven's status, whatever the filter finds
mvn -B -ntp test -pl "$module" -Dspotless.check.skip=true "${tests[@]}" |
  grep -E '^\[ERROR\]|Tests run:|BUILD|FAIL'
exit "${PIPESTATUS[0]}"
