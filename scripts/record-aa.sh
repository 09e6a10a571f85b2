#!/usr/bin/env bash
# Record interleaved A/A rounds of a real Criterion suite (same binary on both sides).
#
# Usage: scripts/record-aa.sh CRATE VERSION BENCH_TARGETS ROUNDS OUTDIR [BENCH_ARG...]
#   CRATE          a crates.io crate name (its *published* source is fetched into a temp dir;
#                  nothing of it is kept), or the path of a local crate (e.g. examples/tiny-bench).
#   VERSION        exact version (for a local crate it must equal the manifest's version).
#   BENCH_TARGETS  comma-separated [[bench]] target names; a side runs them one after the other.
#   ROUNDS         number of rounds k; round r runs base then head when r is odd, head then base
#                  when r is even (A B | B A | A B | ...).
#   OUTDIR         e.g. bench/data/aa-bs58-0.5.1 (layout: bench/data/README.md).
#   BENCH_ARG...   extra arguments for every bench-binary run, e.g. a Criterion filter.
#
# Environment: AA_WARM_UP (default 0.2), AA_MEASUREMENT (default 0.5) in seconds (Criterion < 0.4
# needs whole seconds), AA_SAMPLE_SIZE (default: the suite's own), AA_KEEP_WORKDIR=1 to keep the
# temp dir. Needs cargo, jq, awk.
#
# Every side of round r is one process per bench target:
#   <bench binary> --bench --noplot --warm-up-time W --measurement-time M --save-baseline base-r
# (or head-r). After all rounds, Criterion's own verdict for round r is produced without
# measuring again, on the work copy (it writes change/estimates.json, which the saved tree omits):
#   <bench binary> --bench --noplot --load-baseline head-r --baseline base-r
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
[[ $# -ge 5 ]] || usage
CRATE="$1" VERSION="$2" TARGETS_CSV="$3" ROUNDS="$4" OUTDIR="$5"
shift 5
BENCH_ARGS=("$@")
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer" >&2; exit 2; }
IFS=',' read -r -a TARGETS <<<"$TARGETS_CSV"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WARM_UP="${AA_WARM_UP:-0.2}"
MEASUREMENT="${AA_MEASUREMENT:-0.5}"
FLAGS=(--noplot --warm-up-time "$WARM_UP" --measurement-time "$MEASUREMENT")
[[ -z "${AA_SAMPLE_SIZE:-}" ]] || FLAGS+=(--sample-size "$AA_SAMPLE_SIZE")

# Criterion writes into the crate's own target/criterion in the work copy.
unset CRITERION_HOME CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR

log() { printf '[record-aa %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
ts() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/benchgate-aa.XXXXXX")"
cleanup() {
  if [[ "${AA_KEEP_WORKDIR:-0}" == 1 ]]; then log "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
SRC="$WORK/src"

# --- 1. the source ------------------------------------------------------------------------------
LOCKED=()
if [[ -f "$CRATE/Cargo.toml" ]]; then
  SOURCE_KIND=path
  CRATE_DIR="$(cd "$CRATE" && pwd)"
  SOURCE_DESC="${CRATE_DIR#"$ROOT"/}"
  meta="$(cargo metadata --no-deps --format-version 1 --manifest-path "$CRATE_DIR/Cargo.toml")"
  CRATE_NAME="$(jq -r '.packages[0].name' <<<"$meta")"
  crate_version="$(jq -r '.packages[0].version' <<<"$meta")"
  [[ "$crate_version" == "$VERSION" ]] || {
    echo "$CRATE is version $crate_version, not $VERSION" >&2
    exit 2
  }
  log "copying local crate $SOURCE_DESC ($CRATE_NAME $VERSION) to $SRC"
  mkdir -p "$SRC"
  (cd "$CRATE_DIR" && tar --exclude=./target -cf - .) | (cd "$SRC" && tar -xf -)
  [[ -f "$SRC/Cargo.lock" ]] && LOCKED=(--locked)
else
  SOURCE_KIND=crates.io
  CRATE_NAME="$CRATE"
  SOURCE_DESC="crates.io $CRATE $VERSION (published .crate source)"
  log "fetching $CRATE $VERSION from crates.io"
  cargo new --lib --vcs none --quiet "$WORK/fetch"
  (cd "$WORK/fetch" && cargo add --quiet "$CRATE@=$VERSION" && cargo fetch --quiet)
  regsrc="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$CRATE-$VERSION" | head -n1)"
  [[ -d "$regsrc" ]] || { echo "registry source of $CRATE-$VERSION not found" >&2; exit 3; }
  cp -r "$regsrc" "$SRC"
  chmod -R u+w "$SRC"
  if [[ -f "$OUTDIR/Cargo.lock" ]]; then
    log "reusing the recorded $OUTDIR/Cargo.lock"
    cp "$OUTDIR/Cargo.lock" "$SRC/Cargo.lock"
    LOCKED=(--locked)
  elif [[ -f "$SRC/Cargo.lock" ]]; then
    log "using the Cargo.lock shipped in the package"
    LOCKED=(--locked)
  fi
fi
# A workspace of its own, so that no parent directory's workspace can claim it.
grep -q '^\[workspace\]' "$SRC/Cargo.toml" || printf '\n[workspace]\n' >>"$SRC/Cargo.toml"

# --- 2. build once ------------------------------------------------------------------------------
declare -A BIN
build() {
  local t exe
  for t in "${TARGETS[@]}"; do
    log "building bench target $t (cargo bench ${LOCKED[*]} --no-run)"
    exe="$(cd "$SRC" && cargo bench "${LOCKED[@]}" --bench "$t" --no-run --message-format=json |
      jq -r --arg t "$t" 'select(.reason == "compiler-artifact" and .target.name == $t
        and (.target.kind | index("bench")) and .executable != null) | .executable' | tail -n1)"
    [[ -x "$exe" ]] || return 1
    BIN[$t]="$exe"
  done
}
if ! build; then
  if [[ "$SOURCE_KIND" == crates.io && ${#LOCKED[@]} -gt 0 && ! -f "$OUTDIR/Cargo.lock" ]]; then
    log "build with the shipped Cargo.lock failed; resolving dependencies afresh"
    rm -f "$SRC/Cargo.lock"
    LOCKED=()
    build
  else
    echo "build failed" >&2
    exit 3
  fi
fi
[[ "$SOURCE_KIND" == crates.io ]] && cp "$SRC/Cargo.lock" "$OUTDIR/Cargo.lock"
CRITERION_VERSION="$(awk '/^name = "criterion"$/ {getline; gsub(/version = |"/, ""); print}' \
  "$SRC/Cargo.lock" | sort -u | paste -sd, -)"
log "criterion $CRITERION_VERSION; binaries: ${BIN[*]#"$SRC"/}"

# --- 3. interleaved rounds ----------------------------------------------------------------------
rm -rf "$OUTDIR/criterion" "$OUTDIR/console" "$OUTDIR/criterion-change" "$OUTDIR"/criterion-verdict-r*.txt \
  "$OUTDIR/rounds.json" "$OUTDIR/meta.json" "$OUTDIR/criterion-verdicts.json"
mkdir -p "$OUTDIR/console"
HOME_DIR="$SRC/target/criterion"
rm -rf "$HOME_DIR"
SIDES_JSONL="$WORK/sides.jsonl"
: >"$SIDES_JSONL"

run_side() {
  local side="$1" r="$2" t started finished load0 load1
  load0="$(loadavg)"
  started="$(ts)"
  for t in "${TARGETS[@]}"; do
    (cd "$SRC" && "${BIN[$t]}" --bench "${FLAGS[@]}" --save-baseline "$side-$r" "${BENCH_ARGS[@]}") \
      >>"$OUTDIR/console/r$r-$side.txt" 2>>"$WORK/stderr-r$r-$side.txt" || {
      echo "bench target $t failed in round $r ($side); stderr:" >&2
      tail -n 20 "$WORK/stderr-r$r-$side.txt" >&2
      exit 3
    }
  done
  finished="$(ts)"
  load1="$(loadavg)"
  jq -cn --argjson round "$r" --arg side "$side" --arg s "$started" --arg f "$finished" \
    --arg l0 "$load0" --arg l1 "$load1" \
    '{round: $round, side: $side, started_at: $s, finished_at: $f,
      loadavg_start: ($l0 | split(" ") | map(tonumber)),
      loadavg_end: ($l1 | split(" ") | map(tonumber))}' >>"$SIDES_JSONL"
  log "round $r/$ROUNDS $side done ($started .. $finished)"
}

for ((r = 1; r <= ROUNDS; r++)); do
  if ((r % 2 == 1)); then order=(base head); else order=(head base); fi
  log "round $r/$ROUNDS: ${order[0]} first"
  run_side "${order[0]}" "$r"
  run_side "${order[1]}" "$r"
done

jq -s 'group_by(.round) | map(
    sort_by(.started_at) as $s
    | {round: $s[0].round, first: $s[0].side}
      + ($s | map({key: .side, value: (del(.round, .side))}) | from_entries))' \
  "$SIDES_JSONL" >"$OUTDIR/rounds.json"

# --- 4. save the JSON tree (no report/, no new/ which duplicates the last run, no change/) -------
mkdir -p "$OUTDIR/criterion"
(cd "$HOME_DIR" && find . -name '*.json' -not -path '*/report/*' -not -path '*/new/*' \
  -not -path '*/change/*' -print0 | sort -z | xargs -0 -r cp --parents -t "$OUTDIR/criterion")

# --- 5. Criterion's own verdict per round (no re-measurement), on the work copy -----------------
# parse_verdicts ROUND < console: one JSON object per benchmark with Criterion's change interval
# of the time estimate (fractions, lower/point/upper), p-value and verdict. Ids are as printed
# (Criterion's title: full_id, truncated to 100 bytes + "..." when longer).
parse_verdicts() {
  sed $'s/\xe2\x88\x92/-/g' | awk -v round="$1" '
    function emit(v) {
      printf "{\"round\":%d,\"title\":\"%s\",\"change\":[%s,%s,%s],\"p\":%s,\"verdict\":\"%s\"}\n",
        round, esc(id), lo, pt, hi, p, v
      lo = pt = hi = p = "null"
    }
    function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); return s }
    function pct(s) { sub(/%$/, "", s); sub(/^\+/, "", s); return s / 100 }
    BEGIN { lo = pt = hi = p = "null" }
    /^Benchmarking / || /^Found [0-9]+ outliers/ || /^Gnuplot not found/ || /^WARNING/ || /^Warning/ { next }
    /^[^ ]/ { id = $0; sub(/ +time: +\[.*$/, "", id); next }
    /\(p = [0-9.]+ [<>] [0-9.]+\)/ {
      line = $0
      sub(/^.*\[/, "", line); sub(/\].*$/, "", line)
      n = split(line, a, / +/)
      if (n == 3) { lo = pct(a[1]); pt = pct(a[2]); hi = pct(a[3]) }
      q = $0; sub(/^.*\(p = /, "", q); sub(/ .*$/, "", q); p = q + 0
      next
    }
    /Performance has regressed\./ { emit("regressed"); next }
    /Performance has improved\./ { emit("improved"); next }
    /No change in performance detected\./ { emit("no_change"); next }
    /Change within noise threshold\./ { emit("within_noise"); next }
  '
}
VERDICTS_JSONL="$WORK/verdicts.jsonl"
: >"$VERDICTS_JSONL"
for ((r = 1; r <= ROUNDS; r++)); do
  log "Criterion's verdict for round $r (--load-baseline head-$r --baseline base-$r)"
  find "$HOME_DIR" -type d -name change -prune -exec rm -rf {} +
  out="$OUTDIR/criterion-verdict-r$r.txt"
  : >"$out"
  for t in "${TARGETS[@]}"; do
    (cd "$SRC" && "${BIN[$t]}" --bench --noplot --load-baseline "head-$r" --baseline "base-$r" \
      "${BENCH_ARGS[@]}") >>"$out" 2>>"$WORK/stderr-verdict-r$r.txt" || {
      echo "verdict run failed for $t, round $r" >&2
      tail -n 20 "$WORK/stderr-verdict-r$r.txt" >&2
      exit 3
    }
  done
  parse_verdicts "$r" <"$out" >>"$VERDICTS_JSONL"
  # Criterion's change/estimates.json of this comparison, keyed like the tree.
  (cd "$HOME_DIR" && find . -path '*/change/estimates.json' -not -path '*/report/*' -print0 |
    sort -z | while IFS= read -r -d '' f; do
      d="$OUTDIR/criterion-change/r$r/$(dirname "$(dirname "$f")")"
      mkdir -p "$d"
      cp "$f" "$d/estimates.json"
    done)
done
jq -s '.' "$VERDICTS_JSONL" >"$OUTDIR/criterion-verdicts.json"

# --- 6. meta.json -------------------------------------------------------------------------------
benchmarks_json="$(cd "$OUTDIR/criterion" && find . -path '*/base-1/benchmark.json' -print0 |
  sort -z | xargs -0 cat | jq -s 'map({full_id, directory_name, throughput}) | sort_by(.full_id)')"
cpu_model="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
governor="$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo unknown)"
bin_names="$(for t in "${TARGETS[@]}"; do basename "${BIN[$t]}"; done | jq -R . | jq -s .)"
jq -n \
  --arg crate "$CRATE_NAME" --arg version "$VERSION" --arg source_kind "$SOURCE_KIND" \
  --arg source "$SOURCE_DESC" --arg criterion "$CRITERION_VERSION" \
  --argjson targets "$(printf '%s\n' "${TARGETS[@]}" | jq -R . | jq -s .)" \
  --argjson binaries "$bin_names" \
  --argjson rounds "$ROUNDS" \
  --argjson flags "$(printf '%s\n' "${FLAGS[@]}" | jq -R . | jq -s .)" \
  --argjson bench_args "$(printf '%s\n' "${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}" | jq -R . | jq -s 'map(select(. != ""))')" \
  --argjson benchmarks "$benchmarks_json" \
  --arg nproc "$(nproc)" --arg kernel "$(uname -r)" --arg cpu "$cpu_model" --arg gov "$governor" \
  --arg mem_kb "$(awk '/^MemTotal/ {print $2; exit}' /proc/meminfo)" \
  --arg rustc "$(rustc --version)" --arg cargo "$(cargo --version)" \
  --arg date "$(ts)" \
  --arg command "scripts/record-aa.sh $CRATE $VERSION $TARGETS_CSV $ROUNDS ${OUTDIR#"$ROOT"/}${BENCH_ARGS[*]+ ${BENCH_ARGS[*]}}" \
  '{
    crate: $crate, version: $version, source_kind: $source_kind, source: $source,
    criterion_version: $criterion, bench_targets: $targets, bench_binaries: $binaries,
    rounds: $rounds, order: "base first in odd rounds, head first in even rounds (A B | B A | ...)",
    baselines: {base: "base-<r>", head: "head-<r>"},
    flags: $flags, bench_args: $bench_args,
    measure_command: ("<bench binary> --bench \($flags | join(" ")) --save-baseline <side>-<r> \($bench_args | join(" "))" | rtrimstr(" ")),
    verdict_command: ("<bench binary> --bench --noplot --load-baseline head-<r> --baseline base-<r> \($bench_args | join(" "))" | rtrimstr(" ")),
    benchmark_count: ($benchmarks | length), benchmarks: $benchmarks,
    machine: {nproc: ($nproc | tonumber), kernel: $kernel, cpu_model: $cpu, governor: $gov,
      mem_total_bytes: (($mem_kb | tonumber) * 1024), rustc: $rustc, cargo: $cargo},
    recorded_at: $date, command: $command
  }' >"$OUTDIR/meta.json"

log "done: $(jq .benchmark_count "$OUTDIR/meta.json") benchmarks x $ROUNDS rounds," \
  "$(du -sh "$OUTDIR" | cut -f1) in ${OUTDIR#"$ROOT"/}"
