#!/usr/bin/env bash
# The ./hpf launcher's first build, as a new user sees it, with a stand-in for Maven (the real build
# is the suite's): the modules' progress condensed to one line each with the seconds so far, the
# time it took, and on a failed build Maven's errors and where its whole log is. Run by
# scripts/test.sh after the build (it copies the built CLI into a scratch checkout).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
tree="$scratch/checkout"
mkdir -p "$tree/hpf-cli/src/main" "$scratch/bin"
cp "$repo/hpf" "$tree/hpf"
cp "$repo/pom.xml" "$tree/pom.xml"
cp "$repo/hpf-cli/pom.xml" "$tree/hpf-cli/pom.xml"
# Maven's stand-in: Maven's module lines and colour resets, then the built CLI where it belongs;
# or, with FAIL set, an error.
cat >"$scratch/bin/mvn" <<MVN
#!/usr/bin/env bash
printf '\033[0m[INFO] Scanning for projects...\n'
if [ -n "\${FAIL:-}" ]; then
  printf '[INFO] Building hpf-core 0.1.0-SNAPSHOT                                 [1/2]\n'
  printf '[ERROR] COMPILATION ERROR : something.java:[1,1] cannot find symbol\n'
  exit 1
fi
printf '[INFO] Building hpf-core 0.1.0-SNAPSHOT                                 [1/2]\n'
printf '[INFO] Building hpf-cli 0.1.0-SNAPSHOT                                  [2/2]\n'
mkdir -p hpf-cli/target
cp -r "$repo/hpf-cli/target/hpf.jar" "$repo/hpf-cli/target/lib" hpf-cli/target/
MVN
chmod +x "$scratch/bin/mvn"
fail() {
  echo "test-launcher.sh: $1" >&2
  printf '%s\n' "$2" >&2
  exit 1
}
said="$(cd "$scratch" && FAIL=1 HPF_NO_CDS=1 PATH="$scratch/bin:$PATH" "$tree/hpf" --version 2>&1 >/dev/null)" &&
  fail "a failed build did not fail the command" "$said"
grep -q '^hpf: building on first use' <<<"$said" || fail "no first-build line" "$said"
grep -q '^\[ERROR\] COMPILATION ERROR' <<<"$said" || fail "Maven's error not shown" "$said"
grep -q '^hpf: build failed (the whole log: ' <<<"$said" || fail "no failure line" "$said"
kept="$(sed -n 's/^hpf: build failed (the whole log: \(.*\))$/\1/p' <<<"$said")"
[ -f "$kept" ] || fail "the log it names is not there" "$said"
rm -f "$kept"
said="$(cd "$scratch" && HPF_NO_CDS=1 PATH="$scratch/bin:$PATH" "$tree/hpf" --version 2>&1 >/dev/null)" ||
  fail "the build did not run the command" "$said"
for line in '^hpf: building on first use \(1-3 minutes' '^hpf: \[1/2\] hpf-core \([0-9]+ s\)$' \
  '^hpf: \[2/2\] hpf-cli \([0-9]+ s\)$' '^hpf: built in [0-9]+ s$'; do
  grep -Eq "$line" <<<"$said" || fail "no line like $line" "$said"
done
[ "$(grep -c . <<<"$said")" = 4 ] || fail "more than the four lines of progress" "$said"
grep -q $'\033' <<<"$said" && fail "colour codes reached the terminal" "$said"
said="$(cd "$scratch" && HPF_NO_CDS=1 PATH="$scratch/bin:$PATH" "$tree/hpf" --version 2>&1 >/dev/null)"
[ -z "$said" ] || fail "built again with nothing changed" "$said"
echo "test-launcher.sh: the first build's progress, its failure and a second start ran as a user sees them"
