#!/usr/bin/env bash
# Record today's schedule ("suite, long") and the new default ("pairs, short") side by side,
# interleaved in one run, A/A: bs58 0.5.1's `encode` bench binary built once and copied to two
# paths, "base" and "head". Layout of the result and the analysis: bench/data/README.md
# ("Schedules") and docs/PERFORMANCE.md ("Schedules").
#
# Usage: scripts/record-schedules.sh CONDITION [MINUTES] [OUTDIR]
#   CONDITION  quiet   nothing is started beside it (record it only when `uptime` shows a
#                      1-minute load below 1.0)
#              busy    two `sh -c 'while :; do :; done'` loops beside it, killed after
#              bursty  a cargo build loop beside it: a clean release build of bs58's benches
#                      (criterion and its dependencies) in a target dir of its own, then a pause
#                      of 0-30 s, again and again, killed after
#   MINUTES    wall time of the interleaved rounds, both schedules together (default 22)
#   OUTDIR     default bench/data/schedules-CONDITION (overwritten)
#
# Needs cargo, jq and network access to crates.io the first time (bs58's published source; the
# dependency versions are pinned by bench/data/aa-bs58-0.5.1/Cargo.lock).
set -euo pipefail
usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
[[ $# -ge 1 && $# -le 3 ]] || usage
CONDITION="$1"
MINUTES="${2:-22}"
[[ "$CONDITION" =~ ^(quiet|busy|bursty)$ ]] || usage
[[ "$MINUTES" =~ ^[1-9][0-9]*$ ]] || { echo "MINUTES must be a positive integer" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="${3:-$ROOT/bench/data/schedules-$CONDITION}"
CRATE=bs58 VERSION=0.5.1 TARGET=encode
LOCK="$ROOT/bench/data/aa-bs58-0.5.1/Cargo.lock"
export PATH="$HOME/.cargo/bin:$PATH"
unset CRITERION_HOME CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR

log() { printf '[record-schedules %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/benchgate-schedules.XXXXXX")"
LOAD_PGID=""
stop_load() {
  # The load runs in a process group of its own (setsid), so the cargo and rustc processes of a
  # build in flight stop with the loop that started them.
  if [[ -n "$LOAD_PGID" ]]; then
    kill -TERM -- "-$LOAD_PGID" 2>/dev/null || true
    wait "$LOAD_PGID" 2>/dev/null || true
    LOAD_PGID=""
  fi
}
cleanup() {
  stop_load
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- 1. bs58's published source, its encode bench built once, copied to two paths --------------
log "fetching $CRATE $VERSION from crates.io"
cargo new --lib --vcs none --quiet --name fetch "$WORK/fetch"
(cd "$WORK/fetch" && cargo add --quiet "$CRATE@=$VERSION" && cargo fetch --quiet)
regsrc="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$CRATE-$VERSION" | head -n1)"
cp -r "$regsrc" "$WORK/src"
chmod -R u+w "$WORK/src"
cp "$LOCK" "$WORK/src/Cargo.lock"
grep -q '^\[workspace\]' "$WORK/src/Cargo.toml" || printf '\n[workspace]\n' >>"$WORK/src/Cargo.toml"
# A target dir kept between recordings (gitignored), so that only the first one compiles.
log "building bench target $TARGET (cargo bench --locked --no-run)"
exe="$(cd "$WORK/src" && CARGO_TARGET_DIR="$ROOT/.benchgate/schedules-target" cargo bench --locked --bench "$TARGET" --no-run --message-format=json |
  jq -r --arg t "$TARGET" 'select(.reason == "compiler-artifact" and .target.name == $t
    and (.target.kind | index("bench")) and .executable != null) | .executable' | tail -n1)"
[[ -x "$exe" ]] || { echo "build of bench target $TARGET failed" >&2; exit 3; }
mkdir -p "$WORK/base" "$WORK/head"
cp "$exe" "$WORK/base/$TARGET"
cp "$exe" "$WORK/head/$TARGET"
cmp -s "$WORK/base/$TARGET" "$WORK/head/$TARGET" || { echo "the two copies differ" >&2; exit 3; }
CRITERION_VERSION="$(awk '/^name = "criterion"$/ {getline; gsub(/version = |"/, ""); print}' \
  "$WORK/src/Cargo.lock" | sort -u | paste -sd, -)"

# --- 2. the condition ----------------------------------------------------------------------------
case "$CONDITION" in
  quiet) LOAD_COMMAND="" ;;
  busy) LOAD_COMMAND="sh -c 'while :; do :; done' & sh -c 'while :; do :; done' & wait" ;;
  bursty)
    # Each build's start and end go to load.log, kept with the recording: the evidence that the
    # bursts happened, and when.
    LOAD_COMMAND="cd '$WORK/src' && while :; do CARGO_TARGET_DIR='$WORK/burst-target' cargo clean \
--quiet; echo \"build start \$(date -u +%FT%T.%3NZ)\"; CARGO_TARGET_DIR='$WORK/burst-target' cargo \
build --quiet --locked --release --benches; echo \"build end \$(date -u +%FT%T.%3NZ) exit \$?\"; \
sleep \$((RANDOM % 31)); done"
    ;;
esac
if [[ -n "$LOAD_COMMAND" ]]; then
  setsid bash -c "$LOAD_COMMAND" >"$WORK/load.log" 2>&1 &
  LOAD_PGID=$!
  log "load started (process group $LOAD_PGID): $LOAD_COMMAND"
fi

# --- 3. the interleaved rounds and the summaries -------------------------------------------------
"$ROOT/node_modules/.bin/node" "$ROOT/bench/schedules.ts" record \
  --base "$WORK/base/$TARGET" --head "$WORK/head/$TARGET" --work "$WORK" --out "$OUTDIR" \
  --minutes "$MINUTES" --condition "$CONDITION" --load-command "$LOAD_COMMAND" \
  --crate "$CRATE $VERSION ($TARGET bench, criterion $CRITERION_VERSION)" \
  --command "scripts/record-schedules.sh $*"
stop_load
[[ -z "$LOAD_COMMAND" ]] || cp "$WORK/load.log" "$OUTDIR/load.log"
log "done: ${OUTDIR#"$ROOT"/} ($(du -sh "$OUTDIR" | cut -f1))"
