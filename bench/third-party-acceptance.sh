#!/usr/bin/env bash
# The real-crate acceptance run: a crates.io crate, unchanged, set up by `benchgate init` as a
# new user would and gated by `benchgate run` with init's config as written.
#
#   bench/third-party-acceptance.sh CRATE VERSION [PATCH] [OUT] [-- extra run args]
#   e.g. bench/third-party-acceptance.sh hashbrown 0.17.2 bench/third-party/hashbrown-slower.patch
#        bench/third-party-acceptance.sh hashbrown 0.17.2          # A/A: nothing should regress
#
# A throw-away git repository gets two commits: base = the published source (with
# bench/third-party/CRATE-VERSION.Cargo.lock when recorded, so the build is the one measured
# before) plus what `benchgate init` wrote, committed as a user would (benchgate run reads the
# config from base); head = base with PATCH applied (`git apply`), or without PATCH (or with "")
# the same source with one comment added (A/A). Then `benchgate run --base base --head head`,
# with a fresh build cache (both builds count; ACCEPT_CACHE_DIR=DIR keeps one), while
# /proc/loadavg and the CPU steal counter are sampled every 30 s into OUT/loadavg.txt.
# It prints the wall time, the load averages, the verdict and which benchmarks regressed: for a
# patch, against PATCH's expected list (the same path ending in .expected, one id a line).
# Exit 0 when the run decided as it should within ACCEPT_MINUTES (default 20): with a patch the
# verdict is fail and every expected benchmark regressed; A/A, nothing is flagged (no benchmark
# regressed and the gate did not fail; "inconclusive" benchmarks flag nothing). Else 1;
# 2 on bad usage, 3 when benchgate itself failed.
set -euo pipefail
usage() { sed -n 2,21p "$0" >&2; exit 2; }
[[ $# -ge 2 && $1 != -* ]] || usage
CRATE=$1 VERSION=$2
shift 2
PATCH="" OUT=""
if [[ $# -gt 0 && $1 != -- ]]; then PATCH=$1; shift; fi
if [[ $# -gt 0 && $1 != -- ]]; then OUT=$1; shift; fi
[[ $# -eq 0 || $1 == -- ]] || usage
[[ ${1:-} == -- ]] && shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE=$ROOT/node_modules/.bin/node
BENCHGATE=("$NODE" "$ROOT/action/src/cli/index.ts")
LIMIT_S=$(( ${ACCEPT_MINUTES:-20} * 60 ))
EXPECTED=""
if [[ -n "$PATCH" ]]; then
  PATCH=$(realpath "$PATCH")
  EXPECTED=${PATCH%.patch}.expected
  [[ -f "$EXPECTED" ]] || { echo "third-party-acceptance: no expected list $EXPECTED" >&2; exit 2; }
fi
LABEL=$([[ -n "$PATCH" ]] && basename "${PATCH%.patch}" || echo "$CRATE-aa")
OUT=$(realpath -m "${OUT:-$ROOT/.benchgate/third-party/$LABEL-$VERSION}")
export PATH="$HOME/.cargo/bin:$PATH"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/benchgate-acceptance.XXXXXX")
SAMPLER=""
cleanup() {
  if [[ -n "$SAMPLER" ]]; then kill "$SAMPLER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
log() { printf 'acceptance [%s] %s\n' "$(date +%T)" "$*" >&2; }
git_commit() { # message
  git -C "$REPO" add --all
  git -C "$REPO" -c user.name=benchgate -c user.email=bench@benchgate.invalid \
    commit --quiet --no-gpg-sign -m "$1"
}

# The published source, fetched as cargo would (bench/third-party-run.sh does the same).
cargo new --lib --vcs none --quiet --name fetch "$WORK/fetch"
(cd "$WORK/fetch" && cargo add --quiet "$CRATE@=$VERSION" && cargo fetch --quiet)
SRC=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$CRATE-$VERSION" | head -n1)
REPO=$WORK/repo
mkdir -p "$REPO"
git -C "$REPO" init --quiet --initial-branch=main
cp -r "$SRC"/. "$REPO"/
chmod -R u+w "$REPO"
LOCK=$ROOT/bench/third-party/$CRATE-$VERSION.Cargo.lock
if [[ -f "$LOCK" ]]; then
  cp "$LOCK" "$REPO/Cargo.lock"
elif [[ ! -f "$REPO/Cargo.lock" ]]; then
  # Both sides must build the same dependencies: resolve once, commit it with base.
  (cd "$REPO" && cargo generate-lockfile --quiet)
fi
# Many crates' .gitignore names Cargo.lock (hashbrown's does): commit it all the same, or each
# side would resolve its dependencies again when it builds.
git -C "$REPO" add --force Cargo.lock
git_commit "$CRATE $VERSION (published source)"
log "benchgate init in $REPO"
(cd "$REPO" && "${BENCHGATE[@]}" init) > "$WORK/init.txt" 2>&1 || {
  cat "$WORK/init.txt" >&2
  exit 3
}
git_commit "benchgate init"
git -C "$REPO" tag base
if [[ -n "$PATCH" ]]; then
  git -C "$REPO" apply "$PATCH"
  git_commit "$(basename "$PATCH")"
else
  LIB=$(cd "$REPO" && ls src/lib.rs 2>/dev/null || git ls-files '*.rs' | head -n1)
  printf '\n// A/A head: only this comment differs from base.\n' >> "$REPO/$LIB"
  git_commit "A/A: a comment in $LIB"
fi
git -C "$REPO" tag head
cp "$REPO/benchgate.yml" "$WORK/benchgate.yml"

export BENCHGATE_CACHE_DIR=${ACCEPT_CACHE_DIR:-$WORK/cache}
loadline() { # epoch seconds, /proc/loadavg, the steal jiffies of all CPUs
  echo "$(date +%s) $(cat /proc/loadavg) steal=$(awk '/^cpu /{print $9}' /proc/stat)"
}
sample() { # a line every 30 s; its sleep is waited for, so a TERM ends it at once
  local nap=""
  trap 'kill $nap 2>/dev/null; exit 0' TERM
  while :; do
    loadline
    sleep 30 &
    nap=$!
    wait "$nap"
  done
}
sample > "$WORK/loadavg.txt" &
SAMPLER=$!
log "benchgate run --base base --head head (${PATCH:-A/A}) --out $OUT $*"
start=$(date +%s.%N)
TIME=()
[[ -x /usr/bin/time ]] && TIME=(/usr/bin/time -v -o "$WORK/time.txt")
set +e
"${TIME[@]}" "${BENCHGATE[@]}" run --repo "$REPO" --base base --head head --out "$OUT" "$@"
status=$?
set -e
end=$(date +%s.%N)
kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true # it ends by the signal: not an error
SAMPLER=""
loadline >> "$WORK/loadavg.txt"
mkdir -p "$OUT"
cp "$WORK/loadavg.txt" "$WORK/init.txt" "$WORK/benchgate.yml" "$OUT"/
[[ -f "$WORK/time.txt" ]] && cp "$WORK/time.txt" "$OUT/time.txt"
wall=$(echo "$end - $start" | bc)
printf 'crate %s %s, head %s, benchgate %s, %s CPUs\nexit %s after %.0f s (limit %s s)\n' \
  "$CRATE" "$VERSION" "${PATCH:-A/A}" "$(git -C "$ROOT" rev-parse --short HEAD)" "$(nproc)" \
  "$status" "$wall" "$LIMIT_S" | tee "$OUT/acceptance.txt"
[[ $status -le 1 && -f "$OUT/report.json" ]] || { echo "no verdict: benchgate exited $status" >&2; exit 3; }

# The summary and the check, from the run's own files.
"$NODE" - "$OUT" "$EXPECTED" "$wall" "$LIMIT_S" <<'EOF' | tee -a "$OUT/acceptance.txt"
const fs = require("node:fs");
const [out, expectedFile, wall, limit] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(`${out}/report.json`, "utf8"));
const loads = fs.readFileSync(`${out}/loadavg.txt`, "utf8").trim().split("\n")
  .map((l) => l.split(" ")).map(([t, l1, l5, l15]) => ({ t: +t, l1: +l1, l5: +l5, l15: +l15 }));
const ones = loads.map((l) => l.l1);
const mean = ones.reduce((a, b) => a + b, 0) / ones.length;
console.log(`load average (1 min, ${ones.length} samples every 30 s): min ${Math.min(...ones)}` +
  ` mean ${mean.toFixed(2)} max ${Math.max(...ones)}; 15 min at the end ${loads.at(-1).l15}`);
try {
  const t = JSON.parse(fs.readFileSync(`${out}/timings.json`, "utf8"));
  const steps = t.steps.map((s) => `${s.step} ${(s.ms / 1000).toFixed(0)} s (${s.count}×)`);
  console.log(`time: wall ${(t.wall_ms / 1000).toFixed(0)} s; ${steps.join(", ")}`);
} catch {
  console.log("time: no timings.json");
}
const primary = report.benchmarks.filter((b) => b.secondary !== true);
const by = (v) => primary.filter((b) => b.verdict === v).map((b) => b.id);
const counts = ["regressed", "improved", "unchanged", "inconclusive", "new", "missing"]
  .map((v) => `${v} ${by(v).length}`).join(", ");
console.log(`verdict ${report.verdict}: ${primary.length} benchmarks, ${counts}`);
const regressed = new Set(by("regressed"));
let ok = Number(wall) <= Number(limit);
if (!ok) console.log(`over the limit: ${Number(wall).toFixed(0)} s > ${limit} s`);
if (expectedFile) {
  const expected = fs.readFileSync(expectedFile, "utf8").split("\n")
    .map((l) => l.replace(/#.*/, "").trim()).filter((l) => l !== "");
  const verdictOf = new Map(primary.map((b) => [b.id, b]));
  const missed = expected.filter((id) => !regressed.has(id));
  const extra = [...regressed].filter((id) => !expected.includes(id));
  console.log(`expected regressed: ${expected.length - missed.length} of ${expected.length} found`);
  for (const id of missed) {
    const b = verdictOf.get(id);
    const how = b === undefined ? "not in the report"
      : `${b.verdict}, change ${(100 * (b.change ?? NaN)).toFixed(1)} %, ${b.rounds} rounds`;
    console.log(`  missed ${id}: ${how}`);
  }
  for (const id of extra) console.log(`  regressed but not expected: ${id}`);
  ok &&= report.verdict === "fail" && missed.length === 0;
} else {
  for (const id of regressed) console.log(`  A/A regressed: ${id}`);
  ok &&= report.verdict !== "fail" && regressed.size === 0;
}
console.log(ok ? "acceptance: held" : "acceptance: NOT held");
process.exitCode = ok ? 0 : 1;
EOF
