#!/usr/bin/env bash
# The whole default test suite with the static checks (formatting, forbidden APIs, Error Prone).
# Longer tests: ./scripts/test.sh -Plong
set -euo pipefail
cd "$(dirname "$0")/.."
command -v java >/dev/null && command -v mvn >/dev/null || ./scripts/install-build-tools.sh
exec mvn -B -ntp verify "$@"
