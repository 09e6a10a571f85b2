#!/usr/bin/env bash
# Capture real tool output as test fixtures under action/test/fixtures/.
#
# Usage: scripts/capture-fixtures.sh [SECTION...]
#   SECTION: criterion (0.8.2, examples/tiny-bench), compat (criterion 0.3.2/0.3.6/0.4.0/0.5.1,
#            examples/tiny-bench-compat), hyperfine, critcmp (needs the criterion section's tree).
#   Default: all sections, in that order.
#
# Needs: cargo (crates.io reachable or a warm cache), hyperfine 1.15, critcmp 0.1.8, jq.
# Idempotent: every section deletes and rewrites only its own fixture folders. Numbers change from
# run to run (they are measurements); file layout and ids do not.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIX="$ROOT/action/test/fixtures"
TINY="$ROOT/examples/tiny-bench"
COMPAT="$ROOT/examples/tiny-bench-compat"
COMPAT_VERSIONS=(0.3.2 0.3.6 0.4.0 0.5.1)
HYPERFINE="${HYPERFINE:-hyperfine}"
CRITCMP="${CRITCMP:-critcmp}"

# Criterion must write into each crate's own target/criterion, whatever the caller's environment.
unset CRITERION_HOME CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR

log() { printf '[capture-fixtures] %s\n' "$*" >&2; }

# copy_json SRC_CRITERION_HOME DEST: copy the tree's JSON files (no report/ html/svg, no raw.csv),
# keeping Criterion's directory layout.
copy_json() {
  local src="$1" dest="$2"
  rm -rf "$dest"
  mkdir -p "$dest"
  (cd "$src" && find . -name '*.json' -not -path '*/report/*' -print0 | sort -z |
    xargs -0 -r cp --parents -t "$dest")
}

# bench_binary CRATE_DIR BENCH: path of the bench executable that `cargo bench --no-run` built.
bench_binary() {
  local dir="$1" bench="$2"
  (cd "$dir" && cargo bench --locked --bench "$bench" --no-run --message-format=json 2>/dev/null) |
    jq -r --arg b "$bench" 'select(.reason == "compiler-artifact" and .target.name == $b
      and (.target.kind | index("bench")) and .executable != null) | .executable' | tail -n1
}

# capture_criterion CRATE_DIR BENCH LABEL FIXTURE_DIR CRITERION_FLAGS...
# Runs: --save-baseline base, --save-baseline head, --load-baseline head --baseline base,
# then copies the JSON tree and the console output (stdout; stderr separately).
capture_criterion() {
  local dir="$1" bench="$2" label="$3" out="$4"
  shift 4
  local flags=("$@")
  local home="$dir/target/criterion"
  local console="$FIX/criterion-console/$label"

  log "criterion $label: building $dir (bench $bench)"
  (cd "$dir" && cargo bench --locked --bench "$bench" --no-run >/dev/null 2>&1) || {
    log "criterion $label: build FAILED"
    return 1
  }
  local bin
  bin="$(bench_binary "$dir" "$bench")"
  [[ -x "$bin" ]] || { log "criterion $label: bench binary not found"; return 1; }

  rm -rf "$home" "$console"
  mkdir -p "$console"
  # The bench binary is run from the crate directory, like `cargo bench` does (Criterion finds
  # target/ through `cargo metadata` or ./target).
  run_step() {
    local name="$1"
    shift
    log "criterion $label: $name"
    (cd "$dir" && "$bin" --bench "$@" >"$console/$name.stdout.txt" 2>"$console/$name.stderr.txt")
  }
  run_step 1-save-base "${flags[@]}" --save-baseline base || return 1
  run_step 2-save-head "${flags[@]}" --save-baseline head || return 1
  run_step 3-load-head-baseline-base "${flags[@]}" --load-baseline head --baseline base || return 1
  (cd "$dir" && "$bin" --bench --list >"$console/list.txt" 2>/dev/null) || true
  copy_json "$home" "$out"
  # Equivalent cargo invocations (the script runs the built binary directly, with --bench).
  printf 'cd %s && cargo bench --bench %s -- %s\n' \
    "${dir#"$ROOT"/}" "$bench" "${flags[*]} --save-baseline base" \
    "${dir#"$ROOT"/}" "$bench" "${flags[*]} --save-baseline head" \
    "${dir#"$ROOT"/}" "$bench" "${flags[*]} --load-baseline head --baseline base" \
    >"$console/commands.txt"
  log "criterion $label: $(find "$out" -name benchmark.json -path '*/base/*' | wc -l) benchmarks," \
    "$(find "$out" -type f | wc -l) files -> ${out#"$ROOT"/}"
}

section_criterion() {
  capture_criterion "$TINY" tiny 0.8.2 "$FIX/criterion-0.8.2" \
    --noplot --warm-up-time 0.2 --measurement-time 0.5
  # Criterion's --output-format bencher (what github-action-benchmark parses), on a throw-away copy
  # of the tree, since any comparison rewrites change/estimates.json:
  #  - a measured run (--discard-baseline: base/, head/, new/ are not touched);
  #  - the saved data (--load-baseline head --baseline base): Criterion does not call
  #    measurement_start then, so the "test <id> ... " prefix is missing from every line.
  local tmp bin console="$FIX/criterion-console/0.8.2"
  tmp="$(mktemp -d)"
  cp -r "$TINY/target/criterion" "$tmp/criterion"
  bin="$(bench_binary "$TINY" tiny)"
  log "criterion 0.8.2: --output-format bencher (measured, on a copy)"
  (cd "$TINY" && CRITERION_HOME="$tmp/criterion" "$bin" --bench --noplot --output-format bencher \
    --warm-up-time 0.2 --measurement-time 0.5 --discard-baseline \
    >"$console/bencher-format.stdout.txt" 2>"$console/bencher-format.stderr.txt")
  log "criterion 0.8.2: --output-format bencher (--load-baseline, on a copy)"
  (cd "$TINY" && CRITERION_HOME="$tmp/criterion" "$bin" --bench --noplot --output-format bencher \
    --load-baseline head --baseline base \
    >"$console/bencher-format-load-baseline.stdout.txt" 2>/dev/null)
  rm -rf "$tmp"
}

section_compat() {
  local v dir flags status=()
  for v in "${COMPAT_VERSIONS[@]}"; do
    dir="$COMPAT/criterion-$v"
    case "$v" in
      # Criterion < 0.4 parses --warm-up-time/--measurement-time as whole seconds.
      0.3.*) flags=(--noplot --warm-up-time 1 --measurement-time 1) ;;
      *) flags=(--noplot --warm-up-time 0.2 --measurement-time 0.5) ;;
    esac
    if capture_criterion "$dir" compat "$v" "$FIX/criterion-$v" "${flags[@]}"; then
      status+=("$v: ok")
    else
      status+=("$v: FAILED")
      rm -rf "$FIX/criterion-$v"
    fi
  done
  log "compat: ${status[*]}"
}

section_hyperfine() {
  local out="$FIX/hyperfine-1.15"
  local ver
  ver="$("$HYPERFINE" --version)"
  [[ "$ver" == "hyperfine 1.15."* ]] || log "warning: expected hyperfine 1.15.x, found '$ver'"
  rm -rf "$out"
  mkdir -p "$out"
  cd "$out"
  log "hyperfine: (a) basic two-command run"
  "$HYPERFINE" --style basic -N --warmup 2 --runs 10 \
    --export-json basic.json --export-markdown basic.md --export-csv basic.csv \
    'sleep 0.01' 'sleep 0.02' >basic.stdout.txt 2>&1
  log "hyperfine: (b) parameterized run (-L, two parameters)"
  "$HYPERFINE" --style basic -N --runs 5 -L delay 0.005,0.01 -L word alpha,beta \
    --export-json param.json --export-markdown param.md --export-csv param.csv \
    'sh -c "sleep {delay}; echo {word} >/dev/null"' >param.stdout.txt 2>&1
  log "hyperfine: (c) -i with failing commands (exit 3, SIGKILL)"
  "$HYPERFINE" --style basic -N -i --runs 5 \
    --export-json failing.json \
    'true' "sh -c 'exit 3'" "sh -c 'kill -9 \$\$'" >failing.stdout.txt 2>&1
  log "hyperfine: (d) --runs 1 (stddev null)"
  "$HYPERFINE" --style basic -N --runs 1 \
    --export-json single-run.json \
    'sleep 0.01' >single-run.stdout.txt 2>&1
  cd "$ROOT"
  printf '%s\n' "$ver" >"$out/VERSION"
}

section_critcmp() {
  local out="$FIX/critcmp-0.1.8" target="$TINY/target"
  local ver
  ver="$("$CRITCMP" --version)"
  [[ "$ver" == "critcmp 0.1.8" ]] || log "warning: expected critcmp 0.1.8, found '$ver'"
  [[ -d "$target/criterion/fib 20/head" ]] || {
    log "critcmp: no Criterion tree in $target; run the criterion section first"
    return 1
  }
  rm -rf "$out"
  mkdir -p "$out"
  log "critcmp: exports and text output"
  "$CRITCMP" --target-dir "$target" --export base >"$out/base.json"
  "$CRITCMP" --target-dir "$target" --export head >"$out/head.json"
  "$CRITCMP" --target-dir "$target" --baselines >"$out/baselines.txt"
  local rc
  : >"$out/exit-codes.txt"
  run_critcmp() {
    local file="$1"
    shift
    rc=0
    "$CRITCMP" --target-dir "$target" --color never "$@" >"$out/$file" 2>&1 || rc=$?
    printf 'critcmp %s -> exit %d (%s)\n' "$*" "$rc" "$file" >>"$out/exit-codes.txt"
  }
  run_critcmp base-head.txt base head
  run_critcmp base-head-t5.txt base head -t 5
  run_critcmp base-head-t1000.txt base head -t 1000
  run_critcmp base-head-list.txt base head --list
  # The exported files alone (no target dir) give the same table.
  rc=0
  (cd "$out" && "$CRITCMP" --color never base.json head.json >exports-base-head.txt 2>&1) || rc=$?
  printf 'critcmp base.json head.json -> exit %d (exports-base-head.txt)\n' "$rc" \
    >>"$out/exit-codes.txt"
  printf '%s\n' "$ver" >"$out/VERSION"
}

# Every section, in the default order (critcmp reads the tree the criterion section leaves). A new
# input format with a tool to capture adds its section_<name> function above and its name here.
SECTIONS=(criterion compat hyperfine critcmp)
sections=("$@")
[[ ${#sections[@]} -gt 0 ]] || sections=("${SECTIONS[@]}")
mkdir -p "$FIX"
for s in "${sections[@]}"; do
  if [[ " ${SECTIONS[*]} " != *" $s "* ]]; then
    echo "unknown section '$s' ($(IFS='|'; echo "${SECTIONS[*]}"))" >&2
    exit 2
  fi
  "section_$s"
done
log "done: $(find "$FIX" -type f | wc -l) files, $(du -sh "$FIX" | cut -f1) in ${FIX#"$ROOT"/}"
