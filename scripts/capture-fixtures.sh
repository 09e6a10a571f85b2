#!/usr/bin/env bash
# Capture real tool output as test fixtures under action/test/fixtures/.
#
# Usage: scripts/capture-fixtures.sh [SECTION...]
#   SECTION: criterion (0.8.2, examples/tiny-bench), compat (criterion 0.3.2/0.3.6/0.4.0/0.5.1,
#            examples/tiny-bench-compat), hyperfine, critcmp (needs the criterion section's tree),
#            gungraun (gungraun 0.20 and iai-callgrind 0.16, scratch crates in $GUNGRAUN_WORK).
#   Default: all sections, in that order.
#
# Needs: cargo (crates.io reachable or a warm cache), hyperfine 1.15, critcmp 0.1.8, jq; valgrind
# for the gungraun section.
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

# --- gungraun 0.20 / iai-callgrind 0.16 (Valgrind harnesses) --------------------------------------
# The bench crates are written into a scratch dir outside the repository ($GUNGRAUN_WORK), and each
# harness's runner is installed there at exactly the library's locked version (the library refuses
# a runner of another version). Needs valgrind, jq, and crates.io for the libraries and runners.
GUNGRAUN_WORK="${GUNGRAUN_WORK:-/tmp/gungraun-capture}"

# write_valgrind_crate DIR LIB LIB_VERSION: a tiny bench crate (package tiny-<lib>, bench `sum`):
# bench_sum with two `#[bench::...]` ids (n = 100, 10_000) and bench_collect (allocates; also runs
# DHAT). The `name = x; benchmarks = ...` group syntax is the one both versions accept.
write_valgrind_crate() {
  local dir="$1" lib="$2" version="$3"
  local krate="${lib//-/_}" package="tiny-$lib"
  rm -rf "$dir/benches" "$dir/src"
  mkdir -p "$dir/benches" "$dir/src"
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$package"
version = "0.1.0"
edition = "2021"
publish = false

[dev-dependencies]
$lib = "=$version"

[[bench]]
name = "sum"
harness = false
TOML
  cat >"$dir/src/lib.rs" <<'RUST'
/// Sums 1..=n one element at a time (`black_box` stops LLVM from using the closed form, so the
/// instruction count grows with n).
pub fn sum_to(n: u64) -> u64 {
    let mut acc = 0u64;
    for i in 1..=n {
        acc = acc.wrapping_add(std::hint::black_box(i));
    }
    acc
}
RUST
  cat >"$dir/benches/sum.rs" <<RUST
// Tiny library benchmarks for capturing real $lib summaries (benchgate test fixtures).
use std::hint::black_box;

use $krate::{library_benchmark, library_benchmark_group, main, Dhat, LibraryBenchmarkConfig};
use ${package//-/_}::sum_to;

// One benchmark function, two ids from a \`#[bench::...]\` argument list.
#[library_benchmark]
#[bench::small(100)]
#[bench::large(10_000)]
fn bench_sum(n: u64) -> u64 {
    black_box(sum_to(black_box(n)))
}

// Allocates, and also runs DHAT (in addition to Callgrind) so the summary has heap metrics.
#[library_benchmark(config = LibraryBenchmarkConfig::default().tool(Dhat::default()))]
#[bench::collect_1000(1000)]
fn bench_collect(n: u64) -> Vec<u64> {
    black_box((1..=black_box(n)).collect())
}

library_benchmark_group!(name = sums; benchmarks = bench_sum, bench_collect);

main!(library_benchmark_groups = sums);
RUST
}

# locked_version DIR CRATE: CRATE's version in DIR's Cargo.lock.
locked_version() { (cd "$1" && cargo pkgid --locked "$2") | sed 's/.*[@#]//'; }

# crate_src DIR CRATE: CRATE's unpacked source directory (cargo's registry cache).
crate_src() {
  (cd "$1" && cargo metadata --locked --format-version 1) |
    jq -r --arg c "$2" '.packages[] | select(.name == $c) | .manifest_path' | xargs dirname
}

# valgrind_counts TREE SCHEMA_VERSION: one line per summary.json (module path, id, every tool's
# "new" totals), to compare two runs. v6 (iai-callgrind 0.16) wraps values in EitherOrBoth
# ({"Left": new} | {"Both": [new, old]}) and {"Int"|"Float": n}; v7 (gungraun 0.20) has values.new.
valgrind_counts() {
  local filter
  case "$2" in
    6) filter='[.module_path, .id, (.profiles[] | [.tool, (.summaries.total.summary[]
         | map_values(.metrics | (.Left // .Both[0]) | (.Int // .Float)))])]' ;;
    *) filter='[.module_path, .id, (.profiles[] | [.tool, (.data.total.metrics
         | map_values(.values.new))])]' ;;
  esac
  find "$1" -name summary.json -print0 | sort -z | xargs -0 jq -c "$filter"
}

# copy_valgrind_tree SRC DEST: the harness's output tree with its layout: summary.json and the
# Valgrind logs; not the callgrind/DHAT profiles (*.out: not what benchgate ingests) nor the
# previous run's copies (*.old).
copy_valgrind_tree() {
  mkdir -p "$2"
  (cd "$1" && find . -type f \( -name summary.json -o -name '*.log' \) -size -200k -print0 |
    sort -z | xargs -0 -r cp --parents -t "$2")
}

# summary_schema DIR RUNNER RUNNER_VERSION SCHEMA_VERSION DEST: the summary's JSON schema: the
# runner crate's schemas/summary.v<N>.schema.json when it ships one (iai-callgrind-runner does),
# otherwise generated from the runner's model (gungraun-runner 0.20 ships none; upstream's
# schema-gen does the same: draft-07 root schema of BenchmarkSummary).
summary_schema() {
  local dir="$1" runner="$2" version="$3" n="$4" dest="$5"
  local shipped
  shipped="$(crate_src "$dir" "$runner")/schemas/summary.v$n.schema.json"
  if [[ -f "$shipped" ]]; then
    cp "$shipped" "$dest"
    printf 'copied from the %s %s crate: schemas/summary.v%s.schema.json' "$runner" "$version" \
      "$n"
    return
  fi
  local gen="$GUNGRAUN_WORK/schema-gen-$runner-$version" lib="${runner//-/_}"
  mkdir -p "$gen/src"
  cat >"$gen/Cargo.toml" <<TOML
[package]
name = "schema-gen"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
$runner = { version = "=$version", default-features = false, features = ["schema"] }
schemars = { version = "1", features = ["indexmap2"] }
serde_json = "1"
TOML
  cat >"$gen/src/main.rs" <<RUST
use $lib::summary::model::BenchmarkSummary;
use schemars::generate::SchemaSettings;

fn main() {
    let generator = SchemaSettings::draft07().into_generator();
    serde_json::to_writer_pretty(
        std::io::stdout(),
        &generator.into_root_schema_for::<BenchmarkSummary>(),
    )
    .expect("schema");
    println!();
}
RUST
  (cd "$gen" && cargo run --release -q >"$dest")
  printf 'generated from the %s %s crate (feature `schema`, schemars draft-07 root schema of `summary::model::BenchmarkSummary`, as upstream schema-gen does); the crate ships no schema file' \
    "$runner" "$version"
}

# capture_valgrind LIB LIB_VERSION RUNNER OUTPUT_ROOT ENV_PREFIX FIXTURE_DIR
# Two `cargo bench -- --save-summary=json` runs (the second one compares against the first, so its
# summaries carry old values); copies both trees (run-1/, run-2/, each the layout below
# target/<OUTPUT_ROOT>), the crate, the schema, run 2's console (console.txt), VERSION, README.md.
capture_valgrind() {
  local lib="$1" version="$2" runner="$3" outroot="$4" prefix="$5" out="$6"
  local dir="$GUNGRAUN_WORK/$lib-$version" tag="$lib $version"
  log "$tag: crate in $dir"
  write_valgrind_crate "$dir" "$lib" "$version"
  (cd "$dir" && cargo generate-lockfile -q)
  local runner_version root
  runner_version="$(locked_version "$dir" "$runner")"
  root="$GUNGRAUN_WORK/runners/$runner-$runner_version"
  if [[ ! -x "$root/bin/$runner" ]]; then
    log "$tag: cargo install $runner $runner_version (minutes)"
    local t0=$SECONDS
    cargo install -q --locked "$runner" --version "$runner_version" --root "$root"
    echo "$((SECONDS - t0))" >"$root/build-seconds"
  fi
  local install_note="build time unknown"
  [[ -f "$root/build-seconds" ]] && install_note="built in $(cat "$root/build-seconds") s on $(nproc) cores"
  # The library finds its runner on PATH (unless <PREFIX>_RUNNER was set when it was compiled).
  local envs=("PATH=$root/bin:$PATH" CARGO_TERM_COLOR=never "${prefix}_COLOR=never")
  local cmd=(cargo bench --locked --bench sum -- --save-summary=json)
  (cd "$dir" && env "${envs[@]}" cargo bench --locked --bench sum --no-run -q)
  local tree="$dir/target/$outroot" scratch run
  scratch="$(mktemp -d)"
  rm -rf "$tree" "$out"
  mkdir -p "$out"
  for run in 1 2; do
    log "$tag: run $run"
    (cd "$dir" && env "${envs[@]}" "${cmd[@]}" >"$scratch/console-$run.txt" 2>&1)
    copy_valgrind_tree "$tree" "$out/run-$run"
  done
  mkdir -p "$out/crate/benches" "$out/crate/src"
  cp "$dir/Cargo.toml" "$dir/Cargo.lock" "$out/crate/"
  cp "$dir/benches/sum.rs" "$out/crate/benches/"
  cp "$dir/src/lib.rs" "$out/crate/src/"
  cp "$scratch/console-2.txt" "$out/console.txt"
  local n identical schema_note
  n="$(jq -r .version "$(find "$out/run-1" -name summary.json | head -n1)")"
  schema_note="$(summary_schema "$dir" "$runner" "$runner_version" "$n" \
    "$out/summary.v$n.schema.json")"
  if diff <(valgrind_counts "$out/run-1" "$n") <(valgrind_counts "$out/run-2" "$n") \
    >"$scratch/counts.diff"; then
    identical="yes: every metric total of every profile (Callgrind and DHAT) is the same in run-1 and run-2"
  else
    identical="NO, diff of the totals (run-1 < / run-2 >):"$'\n\n```\n'"$(cat "$scratch/counts.diff")"$'\n```'
  fi
  printf '%s %s (runner %s %s)\n' "$lib" "$version" "$runner" "$runner_version" >"$out/VERSION"
  write_valgrind_readme "$out" "$tag" "$runner $runner_version" "$install_note" "$outroot" \
    "$prefix" "${cmd[*]}" "$identical" "$schema_note" "$n"
  rm -rf "$scratch"
  log "$tag: $(find "$out" -name summary.json | wc -l) summaries, counts identical: ${identical%%:*}"
}

# write_valgrind_readme OUT TAG RUNNER INSTALL_NOTE OUTPUT_ROOT ENV_PREFIX COMMAND IDENTICAL
#   SCHEMA_NOTE SCHEMA_VERSION
write_valgrind_readme() {
  local out="$1" tag="$2" runner="$3" install="$4" outroot="$5" prefix="$6" cmd="$7"
  local identical="$8" schema="$9" n="${10}" dir="$GUNGRAUN_WORK/${tag// /-}"
  cat >"$out/README.md" <<MD
# $tag: real \`--save-summary=json\` output

Written by \`scripts/capture-fixtures.sh gungraun\` on $(date -u +%Y-%m-%dT%H:%M:%SZ); do not edit
(absolute paths into \`$GUNGRAUN_WORK\`, pids and timings are left as captured).

- library: $tag; runner: $runner (\`cargo install --locked\`, $install)
- $(rustc --version), $(cargo --version), $(valgrind --version), $(uname -sm)
- crate: \`crate/\` (\`Cargo.toml\`, \`Cargo.lock\`, \`benches/sum.rs\`, \`src/lib.rs\`), built in
  \`$dir\`
- schema: \`summary.v$n.schema.json\`, $schema

## Commands

\`\`\`sh
cd $dir
cargo install --locked ${runner% *} --version ${runner#* } --root $GUNGRAUN_WORK/runners/${runner/ /-}
export PATH=$GUNGRAUN_WORK/runners/${runner/ /-}/bin:\$PATH CARGO_TERM_COLOR=never ${prefix}_COLOR=never
rm -rf target/$outroot
$cmd   # run 1 -> run-1/
$cmd   # run 2 -> run-2/ (compares with run 1: "old" values), console.txt
\`\`\`

(\`${prefix}_SAVE_SUMMARY=json\` is the documented equivalent of \`--save-summary=json\`.)

## Files

- \`run-1/\`, \`run-2/\`: \`target/$outroot/\` after each run, same layout
  (\`<package>/<bench file stem>/<group>/<function>.<id>/summary.json\`), only \`summary.json\`
  and the Valgrind \`*.log\` files; the profiles (\`callgrind.*.out\`, \`dhat.*.out\`, their
  \`.old\` copies) are left out.
- \`console.txt\`: stdout and stderr of run 2.

## Were the counts identical across the two runs?

$identical
MD
}

section_gungraun() {
  command -v valgrind >/dev/null || { log "gungraun: valgrind not found"; return 1; }
  mkdir -p "$GUNGRAUN_WORK"
  capture_valgrind gungraun 0.20.0 gungraun-runner gungraun GUNGRAUN "$FIX/gungraun-0.20"
  capture_valgrind iai-callgrind 0.16.1 iai-callgrind-runner iai IAI_CALLGRIND \
    "$FIX/iai-callgrind-0.16"
}

# Every section, in the default order (critcmp reads the tree the criterion section leaves). A new
# input format with a tool to capture adds its section_<name> function above and its name here.
SECTIONS=(criterion compat hyperfine critcmp gungraun)
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
